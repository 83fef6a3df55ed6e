package potri

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of potri, in candidate order (native before
// vendor). Each computes LAPACK xPOTRI's inverse: the factor's inverse,
// then the product of it with its transpose.
var (
	// permatrix inverts each matrix on one worker from start to end while
	// it stays in cache: the factor's inverse a column at a time (xTRTI2)
	// and its product with its transpose a row or column at a time
	// (xLAUU2), on internal/tri's kernels.
	permatrix = &sel.Family{Name: "permatrix"}
	// lanesFamily inverts groups of 8 (float64) or 16 (float32) factors
	// interleaved one per lane, permatrix's steps on rows of lanes, for n
	// up to lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// vendor calls gonum's LAPACK Dpotri per matrix (vendor.go; float64
	// only, absent from a novendor build).
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family potri declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{permatrix, lanesFamily, vendor}

// Key names: the triangle compared as text, then the order by log
// distance, weighing 4 against the batch count.
const keyNames = "uplo:exact n:log:4 batch:log"

// Op is potri's registration with the selection core (also
// sel.Lookup("potri")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses potri's
// kernel with a pin instead: sel.WithPin(ctx, "potri", ...) or
// BATCHLAS_POTRI_ROUTE.
var Op = sel.Register(spec)

// spec is what potri declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  1,
	VendorLib: "lapack",
	Keys:      keyNames,
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: {permatrix.With(), lanesFamily.With()},
		sel.Float64: append([]sel.Choice{permatrix.With(), lanesFamily.With()}, vendorFloat64...),
	},
	// By generality (R4): permatrix serves every shape and dtype; vendor
	// needs gonum.
	LastResort: []string{"permatrix", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "n", Quick: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"},
			Full: []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256"}},
		{Key: "batch", Quick: []string{"1", "4", "16", "64", "256", "1024"},
			Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is potri's correctness gate (R3): permatrix serves every shape,
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

// keyN is the order's position in the key (keyNames).
const keyN = 1
