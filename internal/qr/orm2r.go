package qr

import "github.com/batchlas-go/batchlas"

// Orm2r overwrites the m x n matrix c (column-major, leading dimension
// ldc) with Q C, Q^T C (left) or C Q, C Q^T (right), where Q = H_0 H_1
// ... H_{k-1} is given by the k reflectors in the columns of a (nq x k,
// nq = m on the left and n on the right, k <= nq, leading dimension lda)
// below its diagonal, as Geqr2 leaves them, and their factors tau
// (LAPACK's dorm2r). a is only read: the reflectors' unit heads are never
// written, so a may be shared by concurrent calls. work needs n (left) or
// m (right) elements.
func Orm2r[T batchlas.Float](left, trans bool, m, n, k int, a []T, lda int, tau []T, c []T, ldc int, work []T) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	// Q^T C = H_{k-1} .. H_0 C and C Q = C H_0 .. H_{k-1} apply H_0 first.
	forward := left == trans
	for s := 0; s < k; s++ {
		i := s
		if !forward {
			i = k - 1 - s
		}
		v := a[i+i*lda:]
		if left {
			Larf(true, m-i, n, v, tau[i], c[i:], ldc, work)
		} else {
			Larf(false, m, n-i, v, tau[i], c[i*ldc:], ldc, work)
		}
	}
}
