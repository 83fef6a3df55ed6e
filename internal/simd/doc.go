// Package simd is the library's vector register tile: C = alpha*A*op(B) +
// beta*C on a block of up to three 64-byte vectors of rows (24 float64 or
// 48 float32) by 8 columns, straight on column-major operands, optionally
// over a run of equally spaced matrices. gemm's simd family is built on it,
// its packed kernel runs it on packed panels, and the per-matrix
// factorizations (potrf, getrf) run their trailing updates through Gemm.
//
// On x86-64-v4 the tile is AVX-512 assembly (tile_amd64.s, written by
// gen.go: `go generate`, and TestAssemblyIsGenerated checks the file is
// what gen.go writes). On x86-64-v3 (AVX512 false, AVX2 true) it is AVX2
// assembly (tile_avx2_amd64.s, written by gen_avx2.go), cut into pieces
// of 3 ymm rows by 4 columns with the same operations in the same order,
// so both give the same bits; that file also holds the AVX2 path's
// four-row transpose and panel copy, which gemm's packed kernel packs
// with. Elsewhere, with -tags purego, or when both switches are false,
// TileGo runs: the same tile in Go, summing in the same order. The tests
// flip AVX512 and AVX2 to run every path the CPU has on one machine.
package simd
