package posv

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of posv, in candidate order (simpler first). posv
// has no vendor family: gonum has no Dposv, and its Dpotrf and Dpotrs are
// already what nested runs when potrf's and potrs's tables pick their
// vendor kernels.
var (
	// fusedFamily factors and solves each system on one worker while the
	// matrix is in cache (fused.go).
	fusedFamily = &sel.Family{Name: "fused"}
	// nestedFamily factors the whole batch with the potrf op, then solves
	// it with the potrs op, through their public entry points, so both
	// decisions are traced, covered and served by those ops' own tables
	// (nested.go).
	nestedFamily = &sel.Family{Name: "nested"}
	// lanesFamily factors and solves groups of 8 (float64) or 16
	// (float32) systems interleaved one per vector lane (n <= lanesMax;
	// lanes.go, internal/lanes).
	lanesFamily = &sel.Family{Name: "lanes"}
)

// families lists every family posv declares.
var families = []*sel.Family{fusedFamily, nestedFamily, lanesFamily}

// candidates is the one candidate list of posv, the same for float32 and
// float64.
var candidates = []sel.Choice{
	fusedFamily.With(),
	nestedFamily.With(),
	lanesFamily.With(),
}

// The tuner's coarse design, as potrs's: the order n and the right-hand
// sides nrhs each on an axis of their own, both uplo; batches in steps of
// 2 up to 16, where lanes (one group of 8 or 16 systems costs the same for
// any count up to a group) overtakes the per-matrix kernels.
var (
	nQuick     = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}
	nrhsQuick  = []string{"1", "2", "4", "8", "16", "32", "64"}
	batchQuick = []string{"1", "2", "4", "8", "16", "64", "1024"}
	nFull      = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"}
	nrhsFull   = []string{"1", "2", "4", "8", "16", "32", "64", "256"}
	batchFull  = []string{"1", "2", "4", "8", "16", "64", "512", "4096"}
)

// Op is posv's registration with the selection core (also
// sel.Lookup("posv")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses posv's kernel with a pin instead:
// sel.WithPin(ctx, "posv", ...) or BATCHLAS_POSV_ROUTE.
var Op = sel.Register(spec)

// spec is what posv declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  2, // 2: n and nrhs weigh 4 against batch (was 16): see docs/decisions.md
	VendorLib: "none",
	Keys:      "uplo:exact n:log:4 nrhs:log:4 batch:log",
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): both families serve every shape and batch;
	// nested goes first as the composition of the tuned potrf and potrs
	// ops (the role blocked has in potrf and trsm), then the candidate
	// order.
	LastResort: []string{"nested"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n", Quick: nQuick, Full: nFull},
		{Key: "nrhs", Quick: nrhsQuick, Full: nrhsFull},
		{Key: "batch", Quick: batchQuick, Full: batchFull},
	},
}
