package syrk

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of syrk, in candidate order (native before vendor).
var (
	// tile computes each C_i on one worker, half of gemm's flops, the
	// other triangle never written: on an AVX-512 or AVX2 machine the
	// whole uplo triangle in one assembly call whose diagonal blocks are
	// stored under masks (tri.go), elsewhere a block of simd.Cols columns at a
	// time on the vector tile (simd.Tile), the block's diagonal block
	// through scratch (tile.go).
	tile = &sel.Family{Name: "tile"}
	// vendor calls gonum's BLAS Dsyrk or Ssyrk per matrix (vendor.go;
	// absent from a novendor build).
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family syrk declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{tile, vendor}

// candidates is syrk's one candidate list, the same for float32 and
// float64 (gonum's BLAS has both Dsyrk and Ssyrk).
var candidates = append([]sel.Choice{tile.With()}, vendorCandidates...)

// Key names: the triangle and the transpose compared as text, then the
// order of C, the inner dimension and the batch count by log distance,
// the sizes weighing 4 against the batch as in gemm.
const keyNames = "uplo:exact trans:exact n:log:4 k:log:4 batch:log"

// Op is syrk's registration with the selection core (also
// sel.Lookup("syrk")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses syrk's
// kernel with a pin instead: sel.WithPin(ctx, "syrk", ...) or
// BATCHLAS_SYRK_ROUTE.
var Op = sel.Register(spec)

// spec is what syrk declares to the selection core once.
var spec = sel.OpSpec{
	Name:      opName,
	Revision:  1,
	VendorLib: "blas",
	Keys:      keyNames,
	Families:  families,
	Candidates: map[sel.DType][]sel.Choice{
		sel.Float32: candidates,
		sel.Float64: candidates,
	},
	// By generality (R4): tile serves every shape; vendor needs gonum.
	LastResort: []string{"tile", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "trans", Quick: []string{"N", "T"}, Full: []string{"N", "T"}},
		{Key: "n", Quick: []string{"1", "4", "16", "64", "256"}, Full: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "k", Quick: []string{"1", "4", "16", "64", "256"}, Full: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "batch", Quick: []string{"1", "16", "256", "4096"}, Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is syrk's correctness gate (R3): tile serves every shape; vendor
// needs gonum's BLAS in the build.
func canRun(c sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case tile:
		return true
	case vendor:
		return d.Has("vendor:blas")
	}
	return false
}
