package qr

import "github.com/batchlas-go/batchlas"

// Org2r overwrites the m x n matrix a (column-major, leading dimension
// lda, m >= n >= k) holding k Householder reflectors below its diagonal,
// as Geqr2 leaves them, with the first n columns of Q = H_0 H_1 ...
// H_{k-1} (LAPACK's dorg2r). tau holds the k scalar factors; work needs n
// elements. The reflectors are applied one at a time, last first, each to
// the columns to its right that the later ones have already formed.
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
			applyReflector(true, m-i, n-i-1, a[ii:], tau[i], a[ii+lda:], lda, work)
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

// applyReflector applies H = I - tau v v^T to the m x n matrix c from the
// left (H C) or the right (C H); v has m (left) or n (right) elements with
// v[0] taken as 1 whatever is stored there (so v may be a column of a
// read-only factor). work needs n (left) or m (right) elements. A zero tau
// is H = I and leaves c as it is (no NaN from 0*Inf in c).
//
// This is the file's own copy of LAPACK's dlarf: internal/qr's Larf did
// not exist when org2r.go and orm2r.go were written.
func applyReflector[T batchlas.Float](left bool, m, n int, v []T, tau T, c []T, ldc int, work []T) {
	if tau == 0 || m == 0 || n == 0 {
		return
	}
	if left {
		// w = C^T v, then C -= tau v w^T, one column at a time.
		for j := 0; j < n; j++ {
			col := c[j*ldc : j*ldc+m]
			s := col[0]
			for l := 1; l < m; l++ {
				s += v[l] * col[l]
			}
			s *= tau
			col[0] -= s
			for l := 1; l < m; l++ {
				col[l] -= s * v[l]
			}
		}
		return
	}
	// w = C v (m elements), then C -= tau w v^T.
	w := work[:m]
	copy(w, c[:m])
	for j := 1; j < n; j++ {
		vj := v[j]
		col := c[j*ldc : j*ldc+m]
		for l := range w {
			w[l] += vj * col[l]
		}
	}
	for j := 0; j < n; j++ {
		s := tau
		if j > 0 {
			s *= v[j]
		}
		col := c[j*ldc : j*ldc+m]
		for l := range w {
			col[l] -= s * w[l]
		}
	}
}
