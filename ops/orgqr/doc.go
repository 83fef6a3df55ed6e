// Package orgqr forms the orthogonal factor of batched QR factorisations:
// every m x n A_i (m >= n) holding geqrf's output is overwritten with the
// first n columns of Q_i = H_0 H_1 .. H_{k-1}, k = tau.Len reflectors
// (LAPACK's xORGQR, batched, column-major, LAPACK's reflector
// convention: gonum's Dgeqrf output, transposed to column-major, is a
// valid input).
//
// Every call picks its kernel through the selection core (package sel),
// with the key `m:log:4 n:log:4 batch:log`:
//
//   - unblocked: each Q on one worker, one reflector at a time, last
//     first (dorg2r, internal/qr.Org2r);
//   - lanes: dorg2r across matrices, groups of 8 (float64) or 16
//     (float32) Q interleaved one per vector lane (internal/lanesqr);
//     m <= 64;
//   - blocked:nb=N (N = 8, 16, 32): each Q on one worker over panels of
//     nb reflectors, last first, each panel's block reflector I - V T V^T
//     applied to the columns to its right (dorgqr,
//     internal/qr.OrgqrBlocked); with nb >= k it is unblocked's code;
//   - vendor: gonum's Dorgqr per matrix on a row-major copy (float64
//     only; not in -tags novendor builds).
//
// Without a tuned table the last-resort order decides: unblocked.
//
// Pin a kernel with BATCHLAS_ORGQR_ROUTE=<spelling> or sel.WithPin(ctx,
// "orgqr", spelling); size the workspace with BufferSize under the same
// context, or pass nil to let the call allocate it. With it supplied a
// call allocates nothing. A call with nothing to form makes no decision
// and does not read the pin.
//
// Orgqr and BufferSize treat a nil context as context.Background().
package orgqr
