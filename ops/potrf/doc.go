// Package potrf is batched Cholesky factorisation: every symmetric positive
// definite matrix A_i of a batch is factored in place as L*L^T (Lower) or
// U^T*U (Upper), touching only that triangle.
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:3 batch:log`, and the candidates are
//
//	tiny                 n <= 16: each matrix factored in a stack array
//	unblocked            per matrix, column by column, left-looking
//	lpanel:panel=8|16|32 per matrix, left-looking in panels of that width
//	blocked              right-looking over the whole batch; the panel solve
//	                     and the trailing update are calls to the trsm and
//	                     gemm ops on sub-matrix views of the batch
//	vendor               gonum's LAPACK Dpotrf per matrix (float64 only,
//	                     absent from a -tags novendor build)
//
// Pin one with BATCHLAS_POTRF_ROUTE=<spelling> or sel.WithPin(ctx, "potrf",
// spelling). A matrix that is not positive definite is reported, LAPACK
// style, in a *batchlas.NumericalError while the rest of the batch is still
// factored.
package potrf
