// Package vec holds the vector kernels of the per-matrix eigensolver
// code in ops/syev: work on one matrix's contiguous columns (column-major,
// a leading dimension apart) that the Go compiler leaves scalar.
//
//   - RotForward and RotBackward apply a sequence of plane rotations to
//     consecutive column pairs (LAPACK's xLASR, side R, pivot V): the
//     implicit QL/QR iterations accumulate their rotations into the
//     eigenvectors this way. A block of rows is carried through the whole
//     sequence in registers, so each column is read and written once per
//     sequence instead of twice per rotation.
//   - Reflect applies one Householder reflector I - tau*v*v^T from the
//     left to a run of columns (the heart of forming Q, xORG2R).
//   - Dot, Axpy, Axpy2 and DotAxpy are the level-1 steps of the
//     tridiagonal reductions (xSYTD2, xLATRD); DotAxpy4 and Axpy2x4 are
//     DotAxpy and Axpy2 on four columns at once, so the symmetric
//     matrix-vector product and rank-2 update read and write each column
//     once and their two vectors once per four columns.
//
// On x86-64-v4 the kernels are AVX-512 assembly (vec_amd64.s, written by
// gen.go: `go generate`; TestAssemblyIsGenerated checks the file is what
// gen.go writes). On x86-64-v3 (simd.AVX2 without simd.AVX512) they are
// AVX2 assembly (vec_avx2_amd64.s, written by gen_avx2.go) that takes each
// 64-byte vector as two 32-byte halves. Elsewhere, with -tags purego, or
// when both switches are off, a Go twin runs. All three perform the same
// IEEE operations in the same order (fused multiply-adds included, the
// dot products summed in the AVX-512 kernel's lane order), so all give
// the same bits; the tests flip the switches to compare every path the
// machine has.
package vec
