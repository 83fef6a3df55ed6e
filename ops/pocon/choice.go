package pocon

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of pocon, in candidate order (native before vendor).
// Each is one unexported driver in its own file.
var (
	// permatrix runs the estimator (internal/condest) on each matrix on
	// one worker, its solves by the factor in place through internal/chol,
	// the per-matrix solve of potrs (permatrix.go).
	permatrix = &sel.Family{Name: "permatrix"}
	// vendor calls gonum's LAPACK Dpocon per matrix (vendor.go); float64
	// only, absent from a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family pocon declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{permatrix, vendor}

// candidates lists every compiled choice per dtype: gonum's LAPACK is
// float64 only, so float32 has the native kernel alone.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: {permatrix.With()},
	sel.Float64: append([]sel.Choice{permatrix.With()}, vendorFloat64...),
}

// The tuner's design: the triangle, the order (dense at the small end,
// where the per-call overheads of the two kernels differ most) and the
// batch.
var (
	uploAxis   = []string{"L", "U"}
	nQuick     = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}
	nFull      = []string{"1", "2", "3", "4", "6", "8", "12", "16", "24", "32", "48", "64", "96", "128", "192", "256", "384", "512"}
	batchQuick = []string{"1", "4", "16", "64", "256", "1024"}
	batchFull  = []string{"1", "8", "64", "512", "4096"}
)

// spec is pocon's declaration to the selection core.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "uplo:exact n:log:4 batch:log",
	Families:   families,
	Candidates: candidates,
	// permatrix serves every shape and dtype and needs nothing but Go.
	LastResort: []string{"permatrix", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: uploAxis, Full: uploAxis},
		{Key: "n", Quick: nQuick, Full: nFull},
		{Key: "batch", Quick: batchQuick, Full: batchFull},
	},
}

// Op is pocon's registration with the selection core: what pins
// (sel.WithPin, BATCHLAS_POCON_ROUTE), explain and the tuner name.
var Op = sel.Register(spec)
