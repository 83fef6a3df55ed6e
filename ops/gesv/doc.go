// Package gesv solves batched general linear systems A_i*X_i = B_i by LU
// factorisation with partial pivoting (LAPACK's xGESV, batched,
// column-major): A_i is overwritten by its factors and ipiv by its
// pivots, exactly as getrf leaves them, and B_i by X_i, so the factors can
// be reused with getrs for more right-hand sides.
//
// Every call picks its kernel through the selection core (package sel),
// with the key `n:log:4 nrhs:log:4 batch:log`:
//
//   - fused: each system factored (getf2) and solved on one worker while
//     it is in cache;
//   - nested: the getrf op on the whole batch, then the getrs op on the
//     whole batch (the singular systems' B put back after it); both decide
//     their own kernels and are
//     traced beneath gesv (through them, gonum's kernels may run);
//   - lanes (n <= 32): groups of 8 (float64) or 16 (float32) systems
//     interleaved one per vector lane and factored and solved together
//     (AVX-512 on x86-64-v4, a Go twin with the same results elsewhere):
//     a pivot that differs between systems is a masked row swap. Its
//     factors, pivots and info are getrf's unblocked kernel's bit for bit,
//     and below order 32 its solutions are fused's.
//
// Without a tuned table the last-resort order decides: nested.
//
// A singular matrix (a zero or NaN pivot: getrf's info > 0) does not stop
// the batch: its B_i is left exactly as it was, every other system is
// solved, and the call returns a *batchlas.NumericalError listing the
// singular matrices with getrf's info.
//
// Pin a kernel with BATCHLAS_GESV_ROUTE=<spelling> or sel.WithPin(ctx,
// "gesv", spelling); pins of getrf, getrs and trsm apply to nested's
// calls. Size the workspace with BufferSize under the same context, or
// pass nil (lanes needs a group of matrices per worker; nested what getrf
// and getrs need; fused none). With it supplied a call with no singular
// system allocates nothing, whatever the native kernel; with a singular
// system nested also copies that system's B aside (and the error is
// allocated). A call with no
// matrix or n == 0 makes no decision and does not
// read the pin, so a bad pin is no error there; the same rule holds in
// every op.
//
// Gesv and BufferSize treat a nil context as context.Background().
package gesv
