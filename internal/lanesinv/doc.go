// Package lanesinv holds the inverse of a triangular factor's product
// across matrices: a group of lanes.Lanes[T]() Cholesky factors
// interleaved one per lane (internal/lanes' layout) becomes the uplo
// triangle of each A's inverse, LAPACK's xPOTRI run on rows of lanes
// (the column updates and dot products on internal/lanerows). potri's
// lanes kernel runs it in place on a gathered factor; poinv's runs it
// right after factoring the gathered A, in the same pass. It rounds each
// product and sums in row order, so it agrees with the per-matrix
// kernels within rounding, not bit for bit.
package lanesinv
