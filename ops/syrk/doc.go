// Package syrk is the batched symmetric rank-k update (BLAS xSYRK,
// column-major): C_i := alpha*op(A_i)*op(A_i)^T + beta*C_i on the uplo
// triangle of every n x n C_i, op(A) = A (n x k) for trans NoTrans or A^T
// (A k x n) for Trans. Gram and covariance matrices (C = A*A^T), and their
// updates (C += A*A^T), at half of gemm's flops; the other triangle is
// never read nor written.
//
//	c := batchlas.NewBatch[float64](n, n, a.Count)
//	err := syrk.Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact trans:exact n:log:4 k:log:4 batch:log`, and the
// candidates are
//
//	tile     each C_i on one worker, blocks of columns from the
//	         diagonal: on an AVX-512 or AVX2 machine the whole triangle
//	         in one assembly call (blocks of 8 or 4 columns), each
//	         diagonal block stored under lane masks; elsewhere on the
//	         vector tile, each diagonal block through a square on the
//	         stack
//	vendor   gonum's BLAS Dsyrk or Ssyrk per matrix (absent from a -tags
//	         novendor build)
//
// Without a tuned table the last-resort order decides: tile, then vendor.
// alpha = 0 or k = 0 scales the triangle by beta with no kernel to
// choose; beta = 0 does not read C, as BLAS.
//
// Pin a kernel with BATCHLAS_SYRK_ROUTE=<spelling> or sel.WithPin(ctx,
// "syrk", spelling); size the workspace with BufferSize under the same
// context, or pass nil. Workspace: none for NoTrans; for Trans a
// transposed slice of op(A), n x min(k, 64), per worker (tile).
// With the workspace supplied a call allocates nothing.
//
// Syrk and BufferSize treat a nil context as context.Background().
package syrk
