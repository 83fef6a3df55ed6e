package getrf

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of getrf, in candidate order (simpler first, native
// before vendor). Every one follows the pivoting and zero-pivot rules of
// the package documentation, so they differ only in rounding.
var (
	// tinyFamily copies each matrix (n <= tinyMax) into a fixed-size stack
	// array, factors it there right-looking and copies it back.
	tinyFamily = &sel.Family{Name: "tiny"}
	// unblockedFamily factors each matrix in place, right-looking, one
	// column at a time (LAPACK's getf2).
	unblockedFamily = &sel.Family{Name: "unblocked"}
	// recursiveFamily factors each matrix in place by splitting its columns
	// in halves (LAPACK's getrf2 shape): the left half recursively, a
	// triangular solve and a product for the right half, then the right
	// half recursively; one worker carries one matrix through all of it.
	recursiveFamily = &sel.Family{Name: "recursive"}
	// batchedFamily is right-looking blocked over the whole batch: each
	// panel of nb columns is factored per matrix here, and the triangular
	// solve and trailing update go through the trsm and gemm ops on the
	// whole batch.
	batchedFamily = &sel.Family{Name: "batched", Fields: []string{"nb"}}
	// lanesFamily factors groups of 8 (float64) or 16 (float32)
	// matrices interleaved one per vector lane with getf2's arithmetic
	// (n <= lanesMax; lanes.go, internal/lanes).
	lanesFamily = &sel.Family{Name: "lanes"}
	// vendorFamily calls gonum's LAPACK Dgetrf per matrix.
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// tinyMax is the largest order the tiny kernel's stack array holds.
const tinyMax = 16

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	tinyFamily.With(),
	unblockedFamily.With(),
	recursiveFamily.With(),
	batchedFamily.With(16),
	batchedFamily.With(32),
	lanesFamily.With(),
}

// candidates lists every compiled choice per dtype. The vendor choices come
// from vendor.go (float64 only: gonum has no float32 LU, see there) and are
// absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Op is getrf's registration with the selection core (also
// sel.Lookup("getrf")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain), for tools/tune and the
// tests. A program chooses getrf's kernel with a pin instead:
// sel.WithPin(ctx, "getrf", ...) or BATCHLAS_GETRF_ROUTE.
var Op = sel.Register(spec)

// spec is what getrf declares to the selection core once.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   2, // 2: n weighs 4 against batch (was 16): see docs/decisions.md
	VendorLib:  "lapack",
	Keys:       "n:log:4 batch:log",
	Families:   []*sel.Family{tinyFamily, unblockedFamily, recursiveFamily, batchedFamily, lanesFamily, vendorFamily},
	Candidates: candidates,
	// By generality (R4): recursive serves every order and batch with no
	// workspace and no nested decision; vendor next; then candidate order.
	LastResort: []string{"recursive", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "n",
			Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256", "512"},
			Full:  []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}},
		{Key: "batch",
			Quick: []string{"1", "2", "4", "8", "16", "64", "1024"},
			Full:  []string{"1", "16", "256", "4096", "32768"}},
	},
	Twin: twin,
}
