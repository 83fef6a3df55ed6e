// Package getrs solves batched general linear systems with LU factors
// already computed by getrf: op(A_i)*X_i = B_i for every matrix i of a
// batch, op(A) = A or A^T, B_i overwritten by X_i (LAPACK's xGETRS,
// batched, column-major).
//
// The factors are getrf's output: A_i = P_i*L_i*U_i in place (L_i unit
// lower below the diagonal, U_i upper on and above it) with 0-based pivots
// in a batchlas.Vectors[int32] (row j interchanged with row ipiv[j] >= j,
// for j = 0 .. n-1 in order). Factor and pivots are only read, so one
// factor can serve a whole batch of right-hand sides through
// batchlas.Broadcast and batchlas.BroadcastVectors.
//
// Every call picks its kernel through the selection core (package sel),
// with the key `trans:exact n:log:4 nrhs:log:4 batch:log`:
//
//   - permatrix: each system on one worker: interchanges and both
//     triangular solves, four right-hand sides at a time, the factor and
//     the panel of B in cache throughout;
//   - vector: like permatrix, each system on one worker, but both
//     triangular solves are vector substitutions over B's rows, several
//     columns together (AVX-512 on x86-64-v4, its Go twin elsewhere);
//   - nested: the interchanges over the whole batch, then the solves with
//     L and U through the trsm op on the whole batch (trsm's decisions are
//     traced beneath getrs's);
//   - vendor: the interchanges here and gonum's Dtrsm/Strsm per matrix
//     (not in -tags novendor builds).
//
// Without a tuned table the last-resort order decides: permatrix.
//
// Pivots are checked before anything is written (an entry outside
// [j, n) is an *ArgError on ipiv naming the matrix and the position); a
// singular factor is not detected and gives Inf or NaN, as in LAPACK. For
// a solve that reports singular matrices, see gesv.
//
// Pin a kernel with BATCHLAS_GETRS_ROUTE=<spelling> or sel.WithPin(ctx,
// "getrs", spelling); size the workspace with BufferSize under the same
// context, or pass nil to let the call allocate it. Only nested uses a
// workspace (its trsm calls'). With it supplied a call allocates nothing,
// whatever the kernel. A call with nothing to solve makes no
// decision and does not read the pin, so a bad pin is no error there; the
// same rule holds in every op.
//
// Getrs and BufferSize treat a nil context as context.Background().
package getrs
