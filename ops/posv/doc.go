// Package posv is the batched symmetric positive definite solve: for every
// i of a batch it factors A_i = L*L^T (Lower) or U^T*U (Upper) in place,
// as potrf does, and overwrites B_i with the solution X of A_i*X = B_i, as
// potrs does (LAPACK xPOSV, batched, column-major). LogDet then gives
// log(det(A_i)) from the factor, which with the solve is what a
// Gaussian-process likelihood needs.
//
// A matrix that is not positive definite (NaN included) is reported in a
// *batchlas.NumericalError with potrf's info, while every other system is
// still solved; a failed system's B_i is left exactly as it was.
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:4 nrhs:log:4 batch:log`, and the
// candidates are
//
//	fused   per matrix: factor (unblocked, left-looking) and solve while
//	        the matrix is in cache; no workspace
//	nested  the potrf op on the whole batch, then the potrs op; their
//	        decisions are traced beneath posv's
//	lanes   n <= 32: groups of 8 (float64) or 16 (float32) systems
//	        interleaved one per vector lane, factored right-looking and
//	        solved together (AVX-512 on x86-64-v4, a Go twin with the same
//	        results elsewhere); the other triangle of A travels through
//	        and is written back with the bits it had, and a matrix that is
//	        not positive definite is left as right-looking Cholesky leaves
//	        it at its failing column
//
// There is no vendor family: gonum has no Dposv, and nested runs gonum's
// Dpotrf and Dpotrs when potrf's and potrs's tables pick their vendor
// kernels. Without a tuned table the last-resort order decides: nested.
//
// Pin a kernel with BATCHLAS_POSV_ROUTE=<spelling> or
// sel.WithPin(ctx, "posv", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: none for fused; a
// group of systems per worker for lanes; for
// nested the larger of what potrf and potrs need (the failed systems' B_i
// are saved aside in memory of their own, proportional to the failures).
// With the workspace supplied a call that succeeds allocates nothing,
// whatever the kernel (a failure allocates its error and that copy).
//
// Posv, BufferSize and LogDet treat a nil context as context.Background().
package posv
