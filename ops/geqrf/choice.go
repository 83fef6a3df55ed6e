package geqrf

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of geqrf, in candidate order (simpler first, native
// before vendor). Every one leaves LAPACK's factor and reflectors, so
// they differ only in rounding.
var (
	// unblockedFamily factors each matrix in place one column at a time
	// (LAPACK's geqr2, internal/qr.Geqr2): one worker owns one matrix.
	unblockedFamily = &sel.Family{Name: "unblocked"}
	// lanesFamily factors groups of 8 (float64) or 16 (float32) matrices
	// interleaved one per vector lane, geqr2's column loop on whole rows
	// of lanes (internal/lanesqr), for m and n up to lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// blockedFamily factors panels of nb columns with geqr2 and applies
	// each panel's block reflector I - V T V^T to the trailing columns
	// (LAPACK's geqrf: internal/qr.GeqrfBlocked), one matrix per worker.
	blockedFamily = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// vendorFamily calls gonum's LAPACK Dgeqrf per matrix on a row-major
	// copy (float64 only).
	vendorFamily = &sel.Family{Name: "vendor", Vendor: true}
)

// nativeCandidates are the pure-Go choices, identical for both dtypes.
var nativeCandidates = []sel.Choice{
	unblockedFamily.With(),
	lanesFamily.With(),
	blockedFamily.With(4),
	blockedFamily.With(8),
	blockedFamily.With(16),
	blockedFamily.With(32),
}

// candidates lists every compiled choice per dtype. The vendor choices come
// from vendor.go (float64 only) and are absent from a novendor build.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat32...),
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// Op is geqrf's registration with the selection core (also
// sel.Lookup("geqrf")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses geqrf's
// kernel with a pin instead: sel.WithPin(ctx, "geqrf", ...) or
// BATCHLAS_GEQRF_ROUTE.
var Op = sel.Register(spec)

// spec is what geqrf declares to the selection core once.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "m:log:4 n:log:4 batch:log",
	Families:   []*sel.Family{unblockedFamily, lanesFamily, blockedFamily, vendorFamily},
	Candidates: candidates,
	// By generality (R4): unblocked serves every shape with no workspace;
	// vendor next; then candidate order.
	LastResort: []string{"unblocked", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
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
	Twin: twin,
}
