// Package potrs is the batched Cholesky solve: for every i of a batch it
// solves A_i*X = B_i from potrf's factor of A_i (Lower: A_i = L*L^T;
// Upper: A_i = U^T*U), B_i overwritten by X (LAPACK xPOTRS, batched,
// column-major). B_i has any number of columns, the right-hand sides.
//
// The factor is read only and may be one matrix for the whole batch
// (batchlas.Broadcast); B is written and may not share an element with it.
// There is no numerical failure report: a zero on the factor's diagonal
// gives Inf/NaN in X, as trsm does. To factor and solve in one call,
// with the failures reported, see package posv.
//
// Each call makes one decision through the selection core (package sel):
// the key is `uplo:exact n:log:4 nrhs:log:4 batch:log`, and the
// candidates are
//
//	fused   per matrix, forward and backward substitution straight from
//	        the factor while it is in cache, four right-hand sides at a
//	        time; no workspace
//	nested  the two triangular solves through the trsm op, each on the
//	        whole batch (their decisions are traced beneath potrs's)
//	vendor  gonum's LAPACK Dpotrs per matrix (float64 only: gonum has no
//	        float32 Cholesky; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: nested, then
// vendor.
//
// Pin a kernel with BATCHLAS_POTRS_ROUTE=<spelling> or
// sel.WithPin(ctx, "potrs", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: none for fused; for
// nested what its trsm calls need; for vendor a copy of one B_i per worker
// (gonum is row-major) when B has more than one column. With the
// workspace supplied a call allocates nothing, whatever the kernel.
//
// Potrs and BufferSize treat a nil context as context.Background().
package potrs
