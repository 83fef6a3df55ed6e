// Package ormqr applies the orthogonal factor of batched QR factorisations
// without forming it: C_i := Q_i C_i, Q_i^T C_i (side Left) or C_i Q_i,
// C_i Q_i^T (side Right), Q_i = H_0 H_1 .. H_{k-1} given by geqrf's
// output, k = tau.Len reflectors (LAPACK's xORMQR, batched, column-major,
// LAPACK's reflector convention). The factor and tau are only read and
// may be broadcasts.
//
// Every call picks its kernel through the selection core (package sel),
// with the key `side:exact trans:exact m:log:4 n:log:4 k:log:4
// batch:log`:
//
//   - unblocked: each C_i on one worker, one reflector at a time
//     (dorm2r, internal/qr.Orm2r);
//   - blocked:nb=N (N = 8, 16, 32): each C_i on one worker, nb
//     reflectors at a time as one block reflector I - V T V^T (dormqr,
//     internal/qr.OrmqrBlocked); with nb >= k it is unblocked's code;
//   - vendor: gonum's Dormqr per matrix on row-major copies (float64
//     only; not in -tags novendor builds).
//
// Without a tuned table the last-resort order decides: unblocked.
//
// Pin a kernel with BATCHLAS_ORMQR_ROUTE=<spelling> or sel.WithPin(ctx,
// "ormqr", spelling); size the workspace with BufferSize under the same
// context, or pass nil to let the call allocate it. With it supplied a
// call allocates nothing. A call with nothing to do (k == 0 included)
// makes no decision and does not read the pin.
//
// Ormqr and BufferSize treat a nil context as context.Background().
package ormqr
