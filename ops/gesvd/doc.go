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
//	lanes    jacobi with the sweeps of 16 (float64) or 32 (float32)
//	         matrices run together, one per vector lane, two vectors'
//	         worth interleaved (internal/lanessvd); min(m, n) <= 32
//	bidiag   per matrix on one worker as LAPACK's xGESVD: the same QR of a
//	         tall matrix, Householder bidiagonalisation, implicit QR on
//	         the bidiagonal rotating the vectors' columns (internal/svd);
//	         its cost does not grow with the sweeps a matrix needs: the
//	         kernel for larger orders. Without vectors, m*n <= 65536 and
//	         a batch of a group or more, a group of 8 (float64) or 16
//	         (float32) matrices at a time,
//	         the reduction across the vector lanes and dqds on the
//	         bidiagonals (internal/svd.ValuesGroup)
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
// (jacobi; bidiag adds the bidiagonal and its rotations) or for the copy gonum overwrites and its work (vendor). With
// the workspace supplied a call allocates nothing, but for the vendor
// kernel without vectors: gonum's Dgesvd sorts the values through package
// sort there, two allocations a matrix.
//
// Gesvd and BufferSize treat a nil context as context.Background().
package gesvd
