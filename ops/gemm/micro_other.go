//go:build !amd64 || purego

package gemm

import "github.com/batchlas-go/batchlas"

// microTile is the packed family's register tile; without the amd64
// assembly (micro_amd64.go) it is the portable Go kernel.
func microTile[T batchlas.Float](kb int, ap, bp []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	return microPacked(kb, ap, bp)
}

// wideShape is the wide register tile of the packed kernel; there is none
// without the amd64 assembly.
func wideShape[T batchlas.Float]() (mrw, nrw int) { return 0, 0 }

// simdLanes is the number of elements of T in one 64-byte vector: the
// portable simd tile keeps the assembly's tile shape.
func simdLanes[T batchlas.Float]() int { return 64 / elemSize[T]() }

// simdTile is the portable tile of the simd family.
func simdTile[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[simdCols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	simdTileGo(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, hasBeta, count, sa, sb, sc)
}
