package gels

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of gels, in candidate order (native before vendor).
// Each is one unexported driver in its own file.
var (
	// fused factors each A_i (Householder QR, internal/qr), applies Q_i^T
	// to B_i reflector by reflector and back-substitutes with R_i, all on
	// one worker while the matrix is in cache (fused.go).
	fused = &sel.Family{Name: "fused"}
	// lanesFamily is fused across matrices: groups of 8 (float64) or 16
	// (float32) systems interleaved one per vector lane as [A | B], the
	// QR's column steps applying each reflector to B as to A
	// (internal/lanesqr), for m and nrhs up to lanesMax (lanes.go).
	lanesFamily = &sel.Family{Name: "lanes"}
	// blocked is fused with the QR and Q^T*B in panels of nb columns, each
	// panel's reflectors applied to the rest of A and to B as one block
	// reflector (the compact WY form, internal/qr's GeqrfBlocked and
	// OrmqrBlocked): matrix-matrix products where fused makes one
	// rank-one update per column (fused.go).
	blocked = &sel.Family{Name: "blocked", Fields: []string{"nb"}}
	// vendor calls gonum's LAPACK Dgels per matrix on row-major copies of
	// A_i and B_i (vendor.go); float64 only, absent from a novendor build.
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family gels declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{fused, lanesFamily, blocked, vendor}

// candidates lists every compiled choice per dtype: gonum's LAPACK is
// float64 only.
var candidates = map[sel.DType][]sel.Choice{
	sel.Float32: nativeCandidates,
	sel.Float64: append(append([]sel.Choice(nil), nativeCandidates...), vendorFloat64...),
}

// nativeCandidates are the pure-Go choices, the same for both dtypes.
var nativeCandidates = []sel.Choice{fused.With(), lanesFamily.With(), blocked.With(16), blocked.With(32)}

// The tuner's design: rows and columns of A and the right-hand sides each
// on an axis of their own (m >= n: cells with m < n are not problems and
// are skipped), and the batch.
var (
	mQuick     = []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}
	nQuick     = []string{"1", "2", "4", "8", "16", "32", "64", "128"}
	nrhsQuick  = []string{"1", "4", "16"}
	batchQuick = []string{"1", "16", "256", "4096"}
)

// spec is gels's declaration to the selection core.
var spec = sel.OpSpec{
	Name:       opName,
	Revision:   1,
	VendorLib:  "lapack",
	Keys:       "m:log:4 n:log:4 nrhs:log:2 batch:log",
	Families:   families,
	Candidates: candidates,
	// fused serves every shape and dtype and needs nothing but Go.
	LastResort: []string{"fused", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "m", Quick: mQuick, Full: mQuick},
		{Key: "n", Quick: nQuick, Full: nQuick},
		{Key: "nrhs", Quick: nrhsQuick, Full: nrhsQuick},
		{Key: "batch", Quick: batchQuick, Full: batchQuick},
	},
}

// Op is gels's registration with the selection core: what pins
// (sel.WithPin, BATCHLAS_GELS_ROUTE), explain and the tuner name.
var Op = sel.Register(spec)
