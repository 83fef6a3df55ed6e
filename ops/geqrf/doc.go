// Package geqrf computes the QR factorisations of a batch of m x n
// matrices (LAPACK xGEQRF, batched, column-major): A_i = Q_i R_i for any
// m and n (tall, square or wide), R_i on and above the diagonal, Q_i as
// min(m, n) Householder reflectors whose tails are stored below it and
// whose factors go to tau, LAPACK's reflector convention (H = I - tau v
// v^T, v(0) = 1 implied, tau 0 or in [1, 2]), so that orgqr and ormqr,
// and gonum's Dorgqr and Dormqr on a transposed copy, accept the result.
//
//	tau := batchlas.NewVectors[float64](min(m, n), a.Count)
//	err := geqrf.Geqrf(ctx, a, tau, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `m:log:4 n:log:4 batch:log`, and the candidates are
//
//	unblocked    geqr2 per matrix on one worker, one reflector per column
//	             (internal/qr.Geqr2)
//	lanes        geqr2 across matrices: groups of 8 (float64) or 16
//	             (float32) interleaved one per vector lane, factored by one
//	             AVX-512 instruction stream (internal/lanesqr); m, n <= 64
//	blocked:nb=N geqrf per matrix on one worker: panels of N columns
//	             (factored blocked at half the width down to 8, then by
//	             geqr2), each panel's block reflector I - V T V^T applied
//	             to the trailing columns on a dense copy of V, every
//	             product on the vector tile (internal/qr); N 4,
//	             8, 16 and 32; an N of at least min(m, n) is unblocked's code
//	vendor       gonum's LAPACK Dgeqrf per matrix on a row-major copy
//	             (float64 only; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: unblocked, then
// vendor.
//
// Pin a kernel with BATCHLAS_GEQRF_ROUTE=<spelling> or
// sel.WithPin(ctx, "geqrf", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: none for unblocked; a
// triangle of nb x nb, a dense copy of a panel's reflectors, its transpose, and two
// products of nb x max(m, n) per worker for blocked (qr.BlockedWork); a group of
// interleaved matrices and their factors per worker for lanes; a copy of one
// matrix and 32n per worker for vendor. With the workspace supplied a
// call allocates nothing.
//
// Geqrf and BufferSize treat a nil context as context.Background().
package geqrf
