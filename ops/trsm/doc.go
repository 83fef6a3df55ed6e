// Package trsm solves batched triangular systems with many right-hand
// sides: op(A_i)*X = alpha*B_i or X*op(A_i) = alpha*B_i for every matrix i
// of a batch, B_i overwritten by X (BLAS xTRSM, batched, column-major).
//
// B is written and may not share an element with A (batchlas.Overlap):
// elements, not address ranges, so A and B may be disjoint sub-matrix
// views of one parent, as potrf's blocked kernel passes them. Sharing one,
// or a workspace that shares one with A or B, is an *ArgError.
//
// Every call picks its kernel through the selection core (package sel):
//
//   - direct: substitution per matrix, the triangle packed per worker so
//     all 16 side/uplo/trans/diag variants run one register-blocked loop;
//   - vector: substitution per matrix on whole vectors (package subst:
//     AVX-512 on x86-64-v4, a Go twin with the same bits elsewhere), along
//     the triangle for side Left and along B's rows for side Right, the
//     next matrix prefetched while one is solved; for side Left a
//     triangle whose columns would share a few cache sets (a leading
//     dimension that is a multiple of 4 KiB) is first copied to a padded
//     buffer in the workspace, so its BufferSize depends on A's leading
//     dimension;
//   - simd: each matrix by blocks of 16 on one worker, B scaled by alpha
//     first: the diagonal blocks by substitution, every product between
//     blocks on package simd's vector tile (AVX-512 on x86-64-v4);
//   - blocked:nb=8|16|32: recursive halving down to diagonal blocks of at
//     most nb, solved by substitution, with the off-diagonal updates done
//     by the gemm op on the whole batch at once;
//   - vendor: gonum's Dtrsm/Strsm per matrix (not in -tags novendor builds).
//
// Pin a kernel with BATCHLAS_TRSM_ROUTE=<spelling> or sel.WithPin(ctx,
// "trsm", spelling); size the workspace with BufferSize under the same
// context, or pass nil to let the call allocate it; blocked's BufferSize
// includes its gemm updates', which work in the call's workspace. With it
// supplied a call allocates nothing, whatever the kernel. A call that runs no
// kernel (an empty B, or alpha == 0, which sets B to zero) makes no
// decision and does not read the pin, so a bad pin is no error there; the
// same rule holds in every op.
//
// Trsm and BufferSize treat a nil context as context.Background().
package trsm
