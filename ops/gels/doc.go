// Package gels is the batched least-squares solve: for every i of a
// batch it finds X_i minimising ||A_i*X_i - B_i|| (2-norm, per column of
// B_i) for m x n matrices A_i with m >= n and full column rank, by
// Householder QR (LAPACK xGELS with trans N, batched, column-major). B_i
// (m x nrhs) is overwritten by X_i in its first n rows and by the
// components of the residual below; A_i by its QR factor. With m == n it
// solves the square system.
//
// A rank-deficient A_i (a zero or NaN on R's diagonal) is a per-matrix
// failure in a *batchlas.NumericalError, with info the first such
// diagonal position counted from 1, its B_i untouched; every other system
// is solved.
//
// Each call makes one decision through the selection core (package sel):
// the key is `m:log:4 n:log:4 nrhs:log:2 batch:log`, and the candidates
// are
//
//	fused         per matrix on one worker: the Householder QR, Q^T
//	              applied to B_i reflector by reflector and the
//	              back-substitution with R, while A_i is in cache
//	lanes         fused across matrices: groups of 8 (float64) or 16
//	              (float32) systems interleaved one per vector lane as
//	              [A_i | B_i], each reflector applied to B as to A, then
//	              the back-substitution across lanes (internal/lanesqr);
//	              m, nrhs <= 64
//	blocked:nb=N  fused in panels of N columns (N = 16, 32), each
//	              panel's reflectors applied to the rest of A_i and to
//	              B_i as one block reflector (compact WY form)
//	vendor        gonum's LAPACK Dgels per matrix on row-major copies
//	              (float64 only; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: fused, then
// vendor.
//
// Pin a kernel with BATCHLAS_GELS_ROUTE=<spelling> or
// sel.WithPin(ctx, "gels", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace per worker: n +
// max(n, nrhs) for fused; n + N*N + qr.BlockedWork(m, max(n, nrhs), N) for blocked
// (a dense copy of a panel's reflectors and two products); a group
// of interleaved systems for lanes; row-major
// copies of one A_i and B_i and Dgels's work for vendor. With the
// workspace supplied a native call allocates nothing.
//
// Gels and BufferSize treat a nil context as context.Background().
package gels
