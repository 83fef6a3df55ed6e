// Package pocon estimates the reciprocal condition numbers of a batch of
// symmetric positive definite matrices from their Cholesky factors
// (LAPACK xPOCON, batched, column-major): rcond_i = 1/(||A_i||_1 *
// ||A_i^-1||_1), near 1 for a well-conditioned matrix and near 0 (below
// about n*eps) for one that is singular to working precision.
//
// The norms are taken before factoring (Norm, from the same triangle); the
// factors are what potrf or posv leave; the estimate of ||A_i^-1||_1 costs
// a few solves with one right-hand side (Higham's refinement of Hager's
// method, as LAPACK's xLACN2), far less than the factorisation. posv runs
// it for every matrix when the context carries
// batchlas.WithConditionCheck.
//
//	anorm := make([]float64, a.Count)
//	pocon.Norm(ctx, batchlas.Lower, a, anorm) // before a is factored
//	potrf.Potrf(ctx, batchlas.Lower, a, nil)
//	rcond := make([]float64, a.Count)
//	pocon.Pocon(ctx, batchlas.Lower, a, anorm, rcond, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:4 batch:log`, and the candidates are
//
//	permatrix  the estimator per matrix on one worker, its solves with the
//	           factor in place (the per-matrix solve of potrs)
//	vendor     gonum's LAPACK Dpocon per matrix (float64 only; absent
//	           from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: permatrix, then
// vendor.
//
// Pin a kernel with BATCHLAS_POCON_ROUTE=<spelling> or
// sel.WithPin(ctx, "pocon", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: two vectors of n per
// worker for permatrix; 3n per worker for vendor, which also allocates
// gonum's integer work per matrix. With the workspace supplied a
// permatrix call allocates nothing.
//
// Pocon, BufferSize and Norm treat a nil context as context.Background().
package pocon
