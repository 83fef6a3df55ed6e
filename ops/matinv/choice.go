package matinv

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of matinv, in candidate order. Each writes inv(A_i)
// into X_i from an LU factorisation with partial pivoting (getrf's
// pivots and info), A untouched.
var (
	// lanesFamily factors and inverts groups of 8 (float64) or 16
	// (float32) matrices interleaved one per vector lane: getrf's
	// unblocked factorisation and the solve of A_i X_i = I in one pass
	// over the group (internal/lanes' Inverse: getf2's factorisation,
	// then the identity solved for, in registers up to order 8), only
	// the inverses written back; n <= lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// chain copies A into X and runs the getrf op and then the getri op on
	// X, so each picks its own kernel for the batch and is traced beneath
	// matinv (chain.go). It serves every order.
	chain = &sel.Family{Name: "chain"}
)

// families lists every family matinv declares.
var families = []*sel.Family{lanesFamily, chain}

// candidates is the one candidate list of matinv, the same for float32
// and float64. It has no vendor family of its own: chain reaches gonum
// through getrf's and getri's vendor kernels when their tables or pins
// choose them.
var candidates = []sel.Choice{lanesFamily.With(), chain.With()}

// Key names: the order by log distance, weighing 4 against the batch
// count, as getrf and getri do.
const keyNames = "n:log:4 batch:log"

// Op is matinv's registration with the selection core (also
// sel.Lookup("matinv")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses matinv's
// kernel with a pin instead: sel.WithPin(ctx, "matinv", ...) or
// BATCHLAS_MATINV_ROUTE.
var Op = sel.Register(spec)

// spec is what matinv declares to the selection core once.
var spec = sel.OpSpec{
	Name:     opName,
	Revision: 1,
	Keys:     keyNames,
	Families: families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): chain serves every order with whatever getrf
	// and getri choose; lanes only small ones.
	LastResort: []string{"chain"},
	CanRun:     canRun,
	// Orders dense at the small end, where the lanes kernel's single pass
	// and chain's two ops (each with its own pass over the batch) trade
	// places; batches up to where a group of lanes is full many times.
	Grid: []sel.GridAxis{
		{Key: "n", Quick: []string{"1", "2", "3", "4", "8", "16", "32", "64", "128", "256"},
			Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"},
			Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is matinv's correctness gate (R3): chain serves every shape,
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
