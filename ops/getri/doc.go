// Package getri inverts a batch of square matrices from their LU factors
// (LAPACK xGETRI, batched, column-major): every factor A_i that getrf left
// (A_i = P_i*L_i*U_i, with its 0-based pivots) is overwritten with
// inv(A_i).
//
//	ipiv := batchlas.NewVectors[int32](n, a.Count)
//	if err := getrf.Getrf(ctx, a, ipiv, nil); err != nil { ... }
//	err := getri.Getri(ctx, a, ipiv, nil) // a now holds the inverses
//
// (linalg.Inv is the one call that copies, factors and inverts.)
//
// Each call makes one decision through the selection core (package sel):
// the key is `n:log:4 batch:log`, and the candidates are
//
//	permatrix  each matrix on one worker: inv(U) column by column, then
//	           inv(A)*L = inv(U) solved from the last column, then the
//	           column interchanges; every product a column axpy on
//	           internal/vec (AVX-512 on x86-64-v4)
//	lanes      groups of 8 (float64) or 16 (float32) factors interleaved
//	           one per lane, permatrix's loops for short orders run on
//	           rows of lanes; n <= 64; the same bits as permatrix up
//	           to n = 16
//	vendor     gonum's LAPACK Dgetri per matrix on a transposed copy
//	           (float64 only; absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: permatrix, then
// vendor.
//
// A factor with a zero or a NaN on U's diagonal is a per-matrix failure
// (info j+1 for the first, A_i left as it was), the same whichever kernel
// runs; the other matrices are inverted. Pin a kernel with
// BATCHLAS_GETRI_ROUTE=<spelling> or sel.WithPin(ctx, "getri", spelling);
// size the workspace with BufferSize under the same context, or pass nil.
// Workspace: one slot per worker, a block of L's columns (permatrix), a
// group and a column of lanes (lanes) or the row-major copy gonum works
// on and its work (vendor). With the workspace supplied a
// call allocates nothing.
//
// Getri and BufferSize treat a nil context as context.Background().
package getri
