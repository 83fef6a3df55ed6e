package trmm

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// The kernel families of trmm, in candidate order (native before vendor).
var (
	// tile computes each B_i on one worker a block of tileBlock rows
	// (side Left) or columns (Right) at a time, in the order that reads
	// every other block of B before it is overwritten: the block's
	// product with the triangle's diagonal block through a dense copy of
	// it, then the product with the rest of its block row or column, one
	// product on the vector tile (tile.go). About half of gemm's flops.
	// A triangle of one block goes a group of matrices at a time, each
	// tile position one call of the vector tile over the group.
	tile = &sel.Family{Name: "tile"}
	// viaGemm (spelled gemm) makes every op(A_i) a dense square (zeros
	// off the triangle, ones on a unit diagonal) and copies every B_i,
	// both into the workspace, then computes them with one call of the
	// gemm op into B, in passes of an L2's worth of matrices (gemm.go): a
	// full product's flops, twice trmm's, on gemm's kernels for batches
	// of small matrices. It wins where the triangle is small and B wide.
	viaGemm = &sel.Family{Name: "gemm"}
	// swapped computes side Left transposed, B^T := alpha*B^T*op(A)^T:
	// each B_i is transposed into scratch, so that its n columns run
	// along the vector lanes, multiplied by op(A)^T on the vector tile a
	// group of matrices a call, and transposed back (swapped.go). It is
	// for small triangles and wide B, where the tile kernel fills a
	// fraction of each vector.
	swapped = &sel.Family{Name: "swapped"}
	// vendor calls gonum's BLAS Dtrmm or Strmm per matrix (vendor.go;
	// absent from a novendor build).
	vendor = &sel.Family{Name: "vendor", Vendor: true}
)

// families lists every family trmm declares, vendor included even in
// novendor builds, so tables naming it stay parseable everywhere.
var families = []*sel.Family{tile, viaGemm, swapped, vendor}

// candidates is trmm's one candidate list, the same for float32 and
// float64 (gonum's BLAS has both Dtrmm and Strmm).
var candidates = append([]sel.Choice{tile.With(), viaGemm.With(), swapped.With()}, vendorCandidates...)

// Key names, as trsm's: the side, triangle, transpose and diagonal
// compared as text, then B's shape and the batch count by log distance.
const keyNames = "side:exact uplo:exact ta:exact diag:exact m:log:4 n:log:4 batch:log"

// Op is trmm's registration with the selection core (also
// sel.Lookup("trmm")): its candidates and keys, the decision a call
// would make (Op.Pick) and why (Op.Explain). A program chooses trmm's
// kernel with a pin instead: sel.WithPin(ctx, "trmm", ...) or
// BATCHLAS_TRMM_ROUTE.
var Op = sel.Register(spec)

// spec is what trmm declares to the selection core once.
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
	// By generality (R4): tile and gemm serve every shape (tile first:
	// it needs no workspace per matrix); vendor needs gonum.
	LastResort: []string{"tile", "gemm", "vendor"},
	CanRun:     canRun,
	Grid: []sel.GridAxis{
		{Key: "side", Quick: []string{"L", "R"}, Full: []string{"L", "R"}},
		{Key: "uplo", Quick: []string{"L", "U"}, Full: []string{"L", "U"}},
		{Key: "ta", Quick: []string{"N", "T"}, Full: []string{"N", "T"}},
		{Key: "diag", Quick: []string{"N", "U"}, Full: []string{"N", "U"}},
		{Key: "m", Quick: []string{"1", "4", "16", "64", "256"}, Full: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "n", Quick: []string{"1", "4", "16", "64", "256"}, Full: []string{"1", "2", "4", "8", "16", "32", "64", "128", "256"}},
		{Key: "batch", Quick: []string{"1", "16", "256", "4096"}, Full: []string{"1", "4", "16", "64", "256", "1024", "4096"}},
	},
}

// canRun is trmm's correctness gate (R3): tile and gemm serve every
// shape, swapped side Left only; vendor needs gonum's BLAS in the build.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case tile, viaGemm:
		return true
	case swapped:
		return k.Str(0) == "L" // side Left: the transposed product is B^T*op(A)^T
	case vendor:
		return d.Has("vendor:blas")
	}
	return false
}
