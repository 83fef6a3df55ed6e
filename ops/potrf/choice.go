package potrf

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of potrf, in candidate order (simpler first, native
// before vendor).
var (
	// tinyFamily copies each matrix (n <= tinyMax) into a fixed-size stack
	// array, factors it there and copies the triangle back.
	tinyFamily = &sel.Family{Name: "tiny"}
	// unblockedFamily factors each matrix in place, column by column.
	unblockedFamily = &sel.Family{Name: "unblocked"}
	// lpanelFamily is per-matrix left-looking blocked: one worker carries
	// one matrix through all panels of `panel` columns.
	lpanelFamily = &sel.Family{Name: "lpanel", Fields: []string{"panel"}}
	// blockedFamily is right-looking blocked over the whole batch, with the
	// panel solve and trailing update done by the trsm and gemm ops.
	blockedFamily = &sel.Family{Name: "blocked"}
	// tiledFamily factors one matrix at a time, its tiles spread over the
	// workers as a list of tasks (tiled.go): one big matrix on every core.
	tiledFamily = &sel.Family{Name: "tiled"}
	// lanesFamily factors groups of 8 (float64) or 16 (float32)
	// matrices interleaved one per vector lane (n <= lanesMax; lanes.go,
	// internal/lanes).
	lanesFamily = &sel.Family{Name: "lanes"}
	// vendorFamily calls gonum's LAPACK Dpotrf per matrix.
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// tinyMax is the largest order the tiny kernel's stack array holds.
const tinyMax = 16

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	tinyFamily.With(),
	unblockedFamily.With(),
	lpanelFamily.With(8),
	lpanelFamily.With(16),
	lpanelFamily.With(32),
	blockedFamily.With(),
	tiledFamily.With(),
	lanesFamily.With(),
}

// candidates lists every compiled choice per dtype. The vendor choices come
// from vendor.go (float64 only: gonum has no float32 Cholesky, see there)
// and are absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Op is potrf's registration with the selection core (also
// sel.Lookup("potrf")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses potrf's kernel with a pin instead:
// sel.WithPin(ctx, "potrf", ...) or BATCHLAS_POTRF_ROUTE.
var Op = sel.Register(spec)

// spec is what potrf declares to the selection core once.
var spec = sel.OpSpec{
	Name:       "potrf",
	Revision:   3, // 2: n weighed 16 against batch (was 3); 3: 4, see docs/decisions.md
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:4 batch:log",
	Families:   []*sel.Family{tinyFamily, unblockedFamily, lpanelFamily, blockedFamily, tiledFamily, lanesFamily, vendorFamily},
	Candidates: candidates,
	// By generality: blocked serves every shape and batch; vendor next; then
	// candidate order.
	LastResort: []string{"blocked", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n",
			Quick: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512", "768", "1024"},
			Full:  []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512", "768", "1024"}},
		{Key: "batch",
			Quick: []string{"1", "16", "256", "4096", "32768"},
			Full:  []string{"1", "16", "256", "4096", "32768"}},
	},
	Twin: twin,
}
