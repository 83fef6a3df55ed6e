// Package trmm is the batched triangular matrix product (BLAS xTRMM,
// column-major): B_i := alpha*op(A_i)*B_i (side Left) or alpha*B_i*op(A_i)
// (side Right) for triangular A_i, op(A) = A or A^T, in place in B. A
// Cholesky factor times a vector block (L*x, a draw from a Gaussian),
// L*L^T through two calls, or a change of basis by a triangle, at half of
// gemm's flops; only A's uplo triangle is read, its diagonal only when it
// is not a unit one.
//
//	err := trmm.Trmm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, l, b, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `side:exact uplo:exact ta:exact diag:exact m:log:4 n:log:4
// batch:log`, as trsm's, and the candidates are
//
//	tile     each B_i on one worker, a block of 16 rows (Left) or columns
//	         (Right) at a time, in the order that reads every other block
//	         before it is overwritten: its product with the triangle's
//	         diagonal block through a dense copy of that block, then the
//	         rest of the block row or column, one product on the vector
//	         tile; a triangle of one block (order 16 or less) a group of
//	         matrices at a time, each tile position one call of the
//	         vector tile over the group
//	gemm     every op(A_i) as a dense square and a copy of every B_i in
//	         the workspace, then one call of the gemm op into B, in passes
//	         of as many matrices as one core's L2 holds: twice the flops,
//	         on gemm's kernels for batches of small matrices (a small
//	         triangle, a wide B)
//	swapped  side Left only: B^T := alpha*B^T*op(A)^T, each B_i transposed
//	         into scratch so that its columns run along the vector lanes,
//	         a group of matrices a call of the vector tile, and transposed
//	         back: for small triangles and wide B, where tile fills a
//	         fraction of each vector
//	vendor   gonum's BLAS Dtrmm or Strmm per matrix (absent from a -tags
//	         novendor build)
//
// Without a tuned table the last-resort order decides: tile, gemm, then
// vendor.
// alpha = 0 sets B to zero without reading A or B, with no kernel to
// choose.
//
// Pin a kernel with BATCHLAS_TRMM_ROUTE=<spelling> or sel.WithPin(ctx,
// "trmm", spelling); size the workspace with BufferSize under the same
// context, or pass nil. Workspace: per worker, a diagonal block and the
// block of B it multiplies, or a group's squares and copies of B (tile);
// a group's squares, transposed B and products (swapped);
// a square per matrix of a pass (one for a broadcast A), a copy of the
// pass's B and the gemm op's workspace (gemm). With the workspace
// supplied a call allocates nothing.
//
// Trmm and BufferSize treat a nil context as context.Background().
package trmm
