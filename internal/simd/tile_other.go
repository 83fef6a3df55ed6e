//go:build !amd64 || purego

package simd

import "github.com/batchlas-go/batchlas"

// AVX512 is always false without the amd64 assembly; it exists so tests
// and callers read the same switch on every build.
var AVX512 = false

// AVX2 is always false without the amd64 assembly, like AVX512.
var AVX2 = false

// Tile is TileGo without the amd64 assembly.
func Tile[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	TileGo(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, hasBeta, count, sa, sb, sc)
}

// TileStream is Tile without beta: streaming stores need the assembly.
func TileStream[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, count, sa, sb, sc int) {
	TileGo(k, a, lda, b, bsl, boff, c, ldc, rows, ncols, ab, false, count, sa, sb, sc)
}

// StreamAligned is false: without the assembly nothing streams.
func StreamAligned[T batchlas.Float]([]T, int, int) bool { return false }

// Prefetch is a cache hint; without the amd64 assembly it does nothing.
func Prefetch[T batchlas.Float]([]T, int, int, int, int) {}

// Transpose is TransposeGo without the amd64 assembly.
func Transpose[T batchlas.Float](dst []T, ldd int, src []T, lds, m, k int) {
	TransposeGo(dst, ldd, src, lds, m, k)
}

// TileShape is 0, 0: without the assembly there is no tile to pack for.
func TileShape[T batchlas.Float]() (rows, cols int) { return 0, 0 }

// copyColumnsFast does nothing without the amd64 assembly: CopyColumns
// copies.
func copyColumnsFast[T batchlas.Float]([]T, int, []T, int, int, int) bool { return false }
