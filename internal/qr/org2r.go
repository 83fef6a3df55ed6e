package qr

import "github.com/batchlas-go/batchlas"

// Org2r overwrites the m x n matrix a (column-major, leading dimension
// lda, m >= n >= k) holding k Householder reflectors below its diagonal,
// as Geqr2 leaves them, with the first n columns of Q = H_0 H_1 ...
// H_{k-1} (LAPACK's dorg2r). tau holds the k scalar factors; work needs n
// elements (unused by this form, kept for LAPACK's signature). The
// reflectors are applied one at a time, last first, each to the columns
// to its right that the later ones have already formed, in one vector
// kernel per reflector (larfOwn).
func Org2r[T batchlas.Float](m, n, k int, a []T, lda int, tau []T, work []T) {
	if n <= 0 {
		return
	}
	// Columns k .. n-1 start as those of the identity.
	for j := k; j < n; j++ {
		col := a[j*lda : j*lda+m]
		for l := range col {
			col[l] = 0
		}
		col[j] = 1
	}
	for i := k - 1; i >= 0; i-- {
		ii := i + i*lda
		if i < n-1 {
			// H_i on A(i:m, i+1:n), the reflector's head taken as 1.
			larfOwn(m-i, n-i-1, a[ii:], tau[i], a[ii+lda:], lda)
		}
		t := tau[i]
		for l := i + 1; l < m; l++ {
			a[l+i*lda] *= -t
		}
		a[ii] = 1 - t
		for l := 0; l < i; l++ {
			a[l+i*lda] = 0
		}
	}
}
