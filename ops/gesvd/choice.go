package gesvd

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of gesvd, in candidate order (simpler first, native
// before vendor). Every one leaves the same singular values up to
// rounding, in descending order, and vectors with the same signs
// (normalizeSigns).
var (
	// jacobiFamily factors each matrix on one worker by one-sided
	// (Hestenes) Jacobi after a QR of a tall matrix (internal/svd.Jacobi):
	// accurate in the relative sense, fast for small and medium orders.
	jacobiFamily = &sel.Family{Name: "jacobi"}
	// lanesFamily is jacobi with the sweeps of a group of 16 (float64) or
	// 32 (float32) matrices run together, one matrix per vector lane, two
	// vectors' worth interleaved (internal/lanessvd), for min(m, n) up to
	// lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// bidiagFamily factors each matrix on one worker as LAPACK's xGESVD
	// does: a QR of a tall matrix, Householder bidiagonalisation, implicit
	// QR on the bidiagonal with its rotations streamed into the vectors
	// (internal/svd.Bidiag): the kernel for larger orders. The values
	// alone of matrices up to 65536 entries, in batches of a group or
	// more, go a group at a time, one per vector lane
	// (internal/svd.ValuesGroup).
	bidiagFamily = &sel.Family{Name: "bidiag"}
	// vendorFamily calls gonum's LAPACK Dgesvd per matrix (bidiagonal
	// reduction and implicit QR) on a copy (float64 only).
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	jacobiFamily.With(),
	lanesFamily.With(),
	bidiagFamily.With(),
}

// candidates lists every compiled choice per dtype. The vendor choices come
// from vendor.go (float64 only) and are absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Op is gesvd's registration with the selection core (also
// sel.Lookup("gesvd")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses gesvd's
// kernel with a pin instead: sel.WithPin(ctx, "gesvd", ...) or
// BATCHLAS_GESVD_ROUTE.
var Op = sel.Register(spec)

// spec is what gesvd declares to the selection core once. The key's
// vectors word is N when neither U nor V^T is computed and V otherwise:
// what a kernel costs depends on whether it accumulates rotations, not on
// which of the two it returns.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "vectors:exact m:log:4 n:log:4 batch:log",
	Families:   []*sel.Family{jacobiFamily, lanesFamily, bidiagFamily, vendorFamily},
	Candidates: candidates,
	// By generality (R4): jacobi serves every shape and dtype; vendor
	// next.
	LastResort: []string{"jacobi", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "vectors", Quick: []string{"N", "V"}, Full: []string{"N", "V"}},
		{Key: "m",
			Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"},
			Full:  []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256"}},
		{Key: "n",
			Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"},
			Full:  []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256"}},
		{Key: "batch",
			Quick: []string{"1", "4", "16", "64", "256", "1024"},
			Full:  []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}
