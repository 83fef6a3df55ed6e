package gesv

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of gesv, in candidate order (simpler first). Each is
// one unexported driver in its own file. gesv has no vendor family of its
// own: its nested family reaches gonum through getrf's and getrs's vendor
// kernels when their tables (or pins) choose them.
var (
	// fused factors and solves each system on one worker from start to
	// end, while the matrix is in cache: getf2 (unblocked, right-looking)
	// then the solve (fused.go, internal/lusolve).
	fused = &sel.Family{Name: "fused"}
	// nested calls the getrf op on the whole batch, then the getrs op on
	// the whole batch (a singular system's B saved and put back), so both
	// choose their own kernels and their decisions are traced beneath
	// gesv's (nested.go).
	nested = &sel.Family{Name: "nested"}
	// lanes factors and solves groups of 8 (float64) or 16 (float32)
	// systems interleaved one per vector lane, with fused's unblocked
	// arithmetic (n <= lanesMax; lanes.go, internal/lanes).
	lanesFamily = &sel.Family{Name: "lanes"}
)

// families lists every family gesv declares.
var families = []*sel.Family{fused, nested, lanesFamily}

// candidates is the one candidate list of gesv, the same for float32 and
// float64.
var candidates = []sel.Choice{fused.With(), nested.With(), lanesFamily.With()}

// Key names: the order, the right-hand sides and the batch by log
// distance, the sizes weighing 4 against the batch (docs/decisions.md).
const keyNames = "n:log:4 nrhs:log:4 batch:log"

// Op is gesv's registration with the selection core (also
// sel.Lookup("gesv")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses gesv's kernel with a pin instead:
// sel.WithPin(ctx, "gesv", ...) or BATCHLAS_GESV_ROUTE.
var Op = sel.Register(spec)

// spec is what gesv declares to the selection core once.
var spec = sel.OpSpec{
	Name:     opName,
	Revision: 2, // 2: n and nrhs weigh 4 against batch (was 16): see docs/decisions.md
	Keys:     keyNames,
	Families: families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): nested serves every shape with whatever getrf
	// and getrs choose for it; fused serves every shape too, with one
	// unblocked algorithm; lanes only small orders.
	LastResort: []string{"nested", "fused"},
	CanRun:     canRun,
	// Orders dense at the small end, where fused (everything in cache per
	// matrix) and nested (getrf's and getrs's batch kernels) trade places;
	// batches in steps of 2 up to 16, where lanes (one group of 8 or 16
	// systems costs the same for any count up to a group) overtakes the
	// per-matrix kernels, whose cost grows with every matrix.
	Grid: []sel.GridAxis{
		{Key: "n", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}, Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "nrhs", Quick: []string{"1", "2", "4", "8", "16", "32", "64"}, Full: []string{"1", "2", "3", "4", "8", "16", "32", "64", "256"}},
		{Key: "batch", Quick: []string{"1", "2", "4", "8", "16", "64", "1024"}, Full: []string{"1", "2", "4", "8", "16", "64", "512", "4096"}},
	},
}
