package poinv

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of poinv, in candidate order. Each writes the whole
// of inv(A_i) into X_i from the Cholesky factor of A_i's uplo triangle
// (potrf's info), A untouched.
var (
	// lanesFamily factors and inverts groups of 8 (float64) or 16
	// (float32) matrices interleaved one per vector lane in one pass:
	// internal/lanes' Cholesky, then xPOTRI on rows of lanes
	// (internal/lanesinv), the triangle mirrored in the group, the whole
	// inverses written back; n <= lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// chain copies A into X and runs the potrf op and then the potri op
	// on X, so each picks its own kernel for the batch and is traced
	// beneath poinv, then mirrors the triangle (chain.go). It serves every
	// order.
	chain = &sel.Family{Name: "chain"}
)

// families lists every family poinv declares.
var families = []*sel.Family{lanesFamily, chain}

// candidates is the one candidate list of poinv, the same for float32 and
// float64. It has no vendor family of its own: chain reaches gonum
// through potrf's and potri's vendor kernels when their tables or pins
// choose them.
var candidates = []sel.Choice{lanesFamily.With(), chain.With()}

// Key names: the triangle read, and the order by log distance weighing 4
// against the batch count, as potrf and potri do.
const keyNames = "uplo:exact n:log:4 batch:log"

// Op is poinv's registration with the selection core (also
// sel.Lookup("poinv")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses poinv's
// kernel with a pin instead: sel.WithPin(ctx, "poinv", ...) or
// BATCHLAS_POINV_ROUTE.
var Op = sel.Register(spec)

// spec is what poinv declares to the selection core once.
var spec = sel.OpSpec{
	Name:     opName,
	Revision: 1,
	Keys:     keyNames,
	Families: families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): chain serves every order with whatever potrf
	// and potri choose; lanes only small ones.
	LastResort: []string{"chain"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n", Quick: []string{"1", "2", "3", "4", "8", "16", "32", "64", "128", "256"},
			Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"},
			Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is poinv's correctness gate (R3): chain serves every shape,
// lanes orders up to lanesMax.
func canRun(c sel.Choice, k sel.Key, _ *sel.Device) bool {
	switch c.Family() {
	case chain:
		return true
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	}
	return false
}
