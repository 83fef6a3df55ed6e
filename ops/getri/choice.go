package getri

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of getri, in candidate order (native before
// vendor). Each computes LAPACK xGETRI's inverse: inv(U), then inv(A)
// from inv(A)*L = inv(U), then the column interchanges.
var (
	// permatrix inverts each matrix on one worker from start to end while
	// it stays in cache: inv(U) a column at a time on internal/vec's
	// kernels, the solve for inv(A) a block of columns at a time on the
	// vector tile (permatrix.go).
	permatrix = &sel.Family{Name: "permatrix"}
	// lanesFamily inverts groups of 8 (float64) or 16 (float32) factors
	// interleaved one per lane, permatrix's short-order loops on rows of
	// lanes, for n up to lanesMax (lanes.go): the same bits as permatrix
	// up to order 16.
	lanesFamily = &sel.Family{Name: "lanes"}
	// vendor calls gonum's LAPACK Dgetri per matrix on a transposed copy
	// (vendor.go; float64 only, absent from a novendor build).
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family getri declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{permatrix, lanesFamily, vendor}

// nativeCandidates are the pure-Go choices, the same for both dtypes.
var nativeCandidates = []sel.Choice{permatrix.With(), lanesFamily.With()}

// Key names: the order by log distance, weighing 4 against the batch
// count, as the other factorisations do.
const keyNames = "n:log:4 batch:log"

// Op is getri's registration with the selection core (also
// sel.Lookup("getri")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses getri's
// kernel with a pin instead: sel.WithPin(ctx, "getri", ...) or
// BATCHLAS_GETRI_ROUTE.
var Op = sel.Register(spec)

// spec is what getri declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  1,
	VendorLib: "lapack",
	Keys:      keyNames,
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: nativeCandidates,
		sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
	},
	// By generality (R4): permatrix serves every shape and dtype with the
	// least workspace; vendor needs gonum.
	LastResort: []string{"permatrix", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "n", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"},
			Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"},
			Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is getri's correctness gate (R3): permatrix serves every shape,
// lanes orders up to lanesMax; vendor needs gonum's LAPACK in the build.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case permatrix:
		return true
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	case vendor:
		return d.Has("vendor:lapack")
	}
	return false
}
