// Package simd is the library's vector register tile: C = alpha*A*op(B) +
// beta*C on a block of up to three 64-byte vectors of rows (24 float64 or
// 48 float32) by 8 columns, straight on column-major operands, optionally
// over a run of equally spaced matrices. gemm's simd family is built on it,
// its packed kernel runs it on packed panels, and the per-matrix
// factorizations (potrf, getrf) run their trailing updates through Gemm.
//
// On x86-64-v4 the tile is AVX-512 assembly (tile_amd64.s, written by
// gen.go: `go generate`, and TestAssemblyIsGenerated checks the file is
// what gen.go writes). Elsewhere, with -tags purego, or when AVX512 is
// false, TileGo runs: the same tile in Go, summing in the same order. The
// tests flip AVX512 to run both on one machine.
package simd
