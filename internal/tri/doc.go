// Package tri holds the per-matrix triangular kernels the inverses share:
// the inverse of a triangular matrix in place (LAPACK's xTRTI2) and the
// product of a triangle with its own transpose in place (xLAUU2), for
// either triangle, their column products on internal/vec's kernels.
// getri inverts U with it; potri inverts a Cholesky factor and forms
// inv(A) from it.
package tri
