// Package gecon estimates the reciprocal condition numbers of a batch of
// general matrices from their LU factors (LAPACK xGECON, batched,
// column-major): rcond_i = 1/(||A_i|| * ||A_i^-1||) in the 1-norm or the
// infinity norm, near 1 for a well-conditioned matrix and near 0 (below
// about n*eps) for one that is singular to working precision.
//
// The norms of the matrices are taken before factoring (Norm); the factors
// are what getrf or gesv leave; the estimate of ||A_i^-1|| costs a few
// solves with one right-hand side (Higham's refinement of Hager's method,
// as LAPACK's xLACN2), far less than the factorisation. gesv and posv run
// it for every matrix when the context carries
// batchlas.WithConditionCheck.
//
//	anorm := make([]float64, a.Count)
//	gecon.Norm(ctx, batchlas.OneNorm, a, anorm) // before a is factored
//	getrf.Getrf(ctx, a, ipiv, nil)
//	rcond := make([]float64, a.Count)
//	gecon.Gecon(ctx, batchlas.OneNorm, a, anorm, rcond, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `norm:exact n:log:4 batch:log`, and the candidates are
//
//	permatrix  the estimator per matrix on one worker, its solves with the
//	           factor in place (the per-matrix solve of getrs)
//	vendor     gonum's LAPACK Dgecon per matrix on a row-major copy of the
//	           factor (float64 only; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: permatrix, then
// vendor.
//
// Pin a kernel with BATCHLAS_GECON_ROUTE=<spelling> or
// sel.WithPin(ctx, "gecon", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: two vectors of n per
// worker for permatrix; a copy of one factor and 4n per worker for vendor,
// which also allocates gonum's integer work per matrix. With the
// workspace supplied a permatrix call allocates nothing.
//
// Gecon, BufferSize and Norm treat a nil context as context.Background().
package gecon
