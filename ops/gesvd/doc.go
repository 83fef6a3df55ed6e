// Package gesvd computes the singular value decompositions of a batch of
// m x n matrices (LAPACK xGESVD, batched, column-major): A_i = U_i S_i
// V_i^T for any m and n (tall, square or wide), the min(m, n) singular
// values in descending order, and on request the thin or all left and
// right singular vectors, with signs that do not depend on the kernel.
//
//	s := batchlas.NewVectors[float64](min(m, n), a.Count)
//	u := batchlas.NewBatch[float64](m, min(m, n), a.Count)
//	vt := batchlas.NewBatch[float64](min(m, n), n, a.Count)
//	err := gesvd.Gesvd(ctx, gesvd.ThinVectors, gesvd.ThinVectors, a, s, u, vt, nil)
//
// Each call makes one decision through the selection core (package sel):
// the key is `vectors:exact m:log:4 n:log:4 batch:log` (vectors N for
// values alone, V when U or V^T is computed), and the candidates are
//
//	jacobi   one-sided (Hestenes) Jacobi per matrix on one worker, after a
//	         Householder QR of a tall matrix (internal/svd): relative
//	         accuracy, fast for small and medium orders
//	lanes    jacobi with the sweeps of 8 (float64) or 16 (float32) matrices
//	         run together, one per vector lane (internal/lanessvd);
//	         min(m, n) <= 32
//	vendor   gonum's LAPACK Dgesvd per matrix on a copy (float64 only;
//	         absent from a -tags novendor build)
//
// Without a tuned table the last-resort order decides: jacobi, then
// vendor.
//
// Pin a kernel with BATCHLAS_GESVD_ROUTE=<spelling> or
// sel.WithPin(ctx, "gesvd", spelling); size the workspace with BufferSize
// under the same context, or pass nil. Workspace: one per worker, for the
// working copy, the rotations' product and the QR of a tall matrix
// (jacobi) or for the copy gonum overwrites and its work (vendor). With
// the workspace supplied a call allocates nothing.
//
// Gesvd and BufferSize treat a nil context as context.Background().
package gesvd
