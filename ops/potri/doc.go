// Package potri inverts a batch of symmetric positive definite matrices
// from their Cholesky factors (LAPACK xPOTRI, batched, column-major):
// every factor that potrf left in A_i's uplo triangle is overwritten with
// the same triangle of inv(A_i). The SPD inverse of a Gaussian process's
// or a Kalman filter's covariance, at about a third of a general
// inverse's flops.
//
//	if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil { ... }
//	err := potri.Potri(ctx, batchlas.Lower, a) // lower triangle: inv(A)
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:4 batch:log`, and the candidates are
//
//	permatrix  each matrix on one worker: the factor's inverse a column
//	           at a time (xTRTI2), then its product with its transpose a
//	           row or column at a time (xLAUU2), on internal/tri
//	lanes      groups of 8 (float64) or 16 (float32) factors interleaved
//	           one per lane, permatrix's two steps on rows of lanes;
//	           n <= 128
//	vendor     gonum's LAPACK Dpotri per matrix (float64 only; absent
//	           from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: permatrix, then
// vendor. A factor with a zero or NaN on its diagonal is a per-matrix
// failure (info j+1 for the first, that factor left as it was), the same
// whichever kernel runs. Potri needs no workspace (lanes takes its
// groups' scratch from a free list kept between calls). Pin a kernel with
// BATCHLAS_POTRI_ROUTE=<spelling> or sel.WithPin(ctx, "potri",
// spelling).
//
// Potri treats a nil context as context.Background().
package potri
