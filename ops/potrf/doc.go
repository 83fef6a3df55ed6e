// Package potrf is batched Cholesky factorisation: every symmetric positive
// definite matrix A_i of a batch is factored in place as L*L^T (Lower) or
// U^T*U (Upper), touching only that triangle.
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:4 batch:log`, and the candidates are
//
//	tiny                 n <= 16: straight-line code per order up to 12
//	                     (generated, L*D*L^T with square roots last), a
//	                     stack array above
//	unblocked            per matrix, column by column, left-looking
//	lpanel:panel=8|16|32 per matrix, left-looking in panels of that width
//	blocked              right-looking over the whole batch: diagonal blocks
//	                     here, the panel solve and the trailing update
//	                     through the trsm and gemm ops on sub-matrix views;
//	                     a matrix that fits in the core's L2 cache (or has
//	                     n <= 64) is factored whole per matrix instead
//	tiled                one matrix at a time, in tiles of order 192
//	                     whose factor, solve and update tasks are spread
//	                     over the workers in a fixed order (one big
//	                     matrix on every core; the same bits for any
//	                     number of workers)
//	lanes                n <= 32: 8 (float64) or 16 (float32) matrices at
//	                     a time, interleaved one per vector lane, for
//	                     small orders in big batches
//	vendor               gonum's LAPACK Dpotrf per matrix (float64 only:
//	                     gonum has no float32 Cholesky; absent from a
//	                     -tags novendor build)
//
// Without a tuned table the last-resort order decides: blocked, which
// serves every order and batch size.
//
// Pin a kernel with BATCHLAS_POTRF_ROUTE=<spelling> or
// sel.WithPin(ctx, "potrf", spelling). An empty batch runs no kernel,
// makes no decision and does not read the pin, so a bad pin is no error
// there; the same rule holds in every op. A matrix that is not positive
// definite is reported, LAPACK style, in a *batchlas.NumericalError while
// the rest of the batch is still factored.
//
// Workspace: the per-matrix kernels (unblocked, lpanel, and blocked when it
// factors per matrix) factor an Upper matrix through a transposed n x n
// copy per worker, so BufferSize is about workers*n*n for those calls
// (workers: GOMAXPROCS, or the cap batchlas.WithParallelism puts on ctx;
// pass BufferSize the call's ctx) and 0 otherwise; tiled factors an Upper
// matrix through one n x n copy whatever the workers; the blocked
// kernel's nested trsm and gemm calls (its batch-wide path) work in the
// call's workspace, so its BufferSize there is the largest of theirs. With
// the workspace supplied a call allocates nothing, whatever the kernel.
//
// A is the call's only operand, read and written in place; a workspace
// that shares an element with it is an *ArgError.
//
// Potrf and BufferSize treat a nil context as context.Background().
package potrf
