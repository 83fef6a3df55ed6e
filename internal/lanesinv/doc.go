// Package lanesinv holds the inverse of a triangular factor's product
// across matrices: a group of lanes.Lanes[T]() Cholesky factors
// interleaved one per lane (internal/lanes' layout) becomes the uplo
// triangle of each A's inverse, LAPACK's xPOTRI run on rows of lanes.
// potri's lanes kernel runs it in place on a gathered factor; poinv's
// runs it right after factoring the gathered A, in the same pass.
//
// Its two loops (the triangular inverse, then the product of the inverse
// with its transpose) are assembly, one call each over the group: AVX-512
// on x86-64-v4 (potri_amd64.s) and AVX2 on x86-64-v3 (potri_avx2_amd64.s,
// each zmm instruction made two ymm ones, one per half of the group's
// rows), both written by gen.go; Go loops on internal/lanerows run
// elsewhere (lowerGo, upperGo). All three make the same operations in the
// same order and give the same bits. It rounds each
// product before its sum, and sums its dot products in lanerows' four
// partial sums, so it agrees with the per-matrix kernels within rounding,
// not bit for bit.
//
// It also holds Inverse3, the general inverse of tight 3 x 3 matrices
// for matinv's lanes kernel: each group of lanes.Lanes[T]() read straight
// from the batch, factored, inverted and written back in registers by
// one loop over many groups, in AVX-512 (inv3_amd64.s, written by
// gen3.go) or, on x86-64-v3, in AVX2 half a group at a time
// (inv3_avx2_amd64.s, gen3_avx2.go), with the results of internal/lanes'
// Inverse bit for bit. It has no Go twin: where it does not run (no
// AVX2, purego), matinv moves the groups through internal/lanes instead,
// which is its reference.
package lanesinv
