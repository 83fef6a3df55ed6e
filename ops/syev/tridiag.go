package syev

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// tridiagEig is the tridiag kernel on one matrix: s is the full symmetric
// n x n copy (leading dimension lds; only its lower triangle is read). It
// reduces s to tridiagonal form T = Q^T*A*Q (sytd2), forms Q in s when
// vectors are wanted (orgtr), and diagonalises T by implicit QL/QR
// (steqr), accumulating into Q. d[:n] gets the eigenvalues (unsorted), s
// the eigenvectors when vectors is set; e, tau and work are scratch of n,
// n and steqrWork(n) elements. It returns steqr's info.
func tridiagEig[T batchlas.Float](s []T, lds, n int, vectors bool, d, e, tau, work []T) int {
	sytd2Lower(s, lds, n, d, e, tau)
	return tridiagFinish(s, lds, n, vectors, d, e, tau, work)
}

// tridiagFinish is what follows a reduction to tridiagonal form, shared by
// tridiag and blocked: d and e hold T, the lower triangle of s (leading
// dimension lds) the reflectors below the subdiagonal and tau their factors.
func tridiagFinish[T batchlas.Float](s []T, lds, n int, vectors bool, d, e, tau, work []T) int {
	if !vectors {
		return sterf(d, e, n)
	}
	orgtrLower(s, lds, n, tau)
	return steqr(d, e, s, lds, n, work)
}

// sytd2Lower reduces the lower triangle of the n x n matrix a (leading
// dimension lda) to tridiagonal form by Householder reflectors from the
// left and right, unblocked (LAPACK's xSYTD2, uplo L): d[:n] gets the
// diagonal, e[:n-1] the subdiagonal; reflector i is I - tau[i]*v*v^T with
// v = [0 ... 0 1 a(i+2:n, i)], its 1 at row i+1. Only the lower triangle
// is read and written. tau must hold n elements: tau[i:n-1] is the
// scratch vector of step i before it receives tau[i].
func sytd2Lower[T batchlas.Float](a []T, lda, n int, d, e, tau []T) {
	for i := 0; i < n-1; i++ {
		col := a[i*lda : i*lda+n]
		beta, taui := larfg(col[i+1], col[i+2:])
		e[i] = beta
		if taui != 0 {
			col[i+1] = 1
			v := col[i+1 : n]
			x := tau[i : n-1]
			// x := taui * A22 * v, A22 = a(i+1:n, i+1:n).
			symvLower(a[(i+1)*lda+i+1:], lda, n-i-1, taui, v, x)
			// x := x - (taui/2 * x^T*v) * v.
			alpha := -taui / 2 * vec.Dot(x, v)
			vec.Axpy(alpha, v, x)
			// A22 := A22 - v*x^T - x*v^T (lower triangle).
			syr2Lower(a[(i+1)*lda+i+1:], lda, n-i-1, v, x)
			col[i+1] = beta
		}
		d[i] = col[i]
		tau[i] = taui
	}
	if n > 0 {
		d[n-1] = a[(n-1)*lda+n-1]
	}
}

// workLD is the leading dimension of the tridiag and blocked kernels'
// working copy of an n x n matrix: n rounded up to whole 64-byte lines,
// one line more when that makes an even number of them. With a
// power-of-two stride every column of a row block falls in the same few
// cache sets, and a block of rows going through the QL/QR rotations, or
// a reflector going over Q, no longer stays in cache: float64 jobz=V on
// one matrix took 84 ms at n = 512 against 56 at n = 500.
func workLD[T batchlas.Float](n int) int {
	per := vec.Width[T]()
	lines := (n + per - 1) / per
	if lines%2 == 0 {
		lines++
	}
	return lines * per
}

// symvLower sets y := alpha*A*x for the symmetric m x m matrix A whose
// lower triangle is in a (leading dimension lda), four columns at a time:
// the 4 x 4 block on the diagonal in scalar code, then the rows below it
// in one pass (vec.DotAxpy4) that adds t_c = alpha*x[j+c] times each
// column to y and gives each column's dot product with x, reading x and y
// once for the four; the last m%4 columns one at a time (vec.DotAxpy).
// Column j gives its dot product to y[j] after every column before it
// has added to y[j].
func symvLower[T batchlas.Float](a []T, lda, m int, alpha T, x, y []T) {
	clear(y[:m])
	j := 0
	for ; j+4 <= m; j += 4 {
		var t, tri, dots [4]T
		for c := range t {
			t[c] = alpha * x[j+c]
		}
		for c := range 4 {
			col := a[(j+c)*lda : (j+c)*lda+j+4]
			y[j+c] += t[c] * col[j+c]
			for r := j + c + 1; r < j+4; r++ {
				y[r] += t[c] * col[r]
				tri[c] += col[r] * x[r]
			}
		}
		vec.DotAxpy4(&t, a[j*lda+j+4:], lda, x[j+4:m], y[j+4:m], &dots)
		for c := range 4 {
			y[j+c] += alpha * (tri[c] + dots[c])
		}
	}
	for ; j < m; j++ {
		col := a[j*lda+j : j*lda+m]
		t1 := alpha * x[j]
		y[j] += t1 * col[0]
		t2 := vec.DotAxpy(t1, col[1:], x[j+1:m], y[j+1:m])
		y[j] += alpha * t2
	}
}

// syr2Lower sets A := A - x*y^T - y*x^T on the lower triangle of the m x m
// matrix in a (leading dimension lda), four columns at a time: the 4 x 4
// block on the diagonal in scalar code, the rows below it in one pass
// (vec.Axpy2x4); the last m%4 columns one at a time (vec.Axpy2).
func syr2Lower[T batchlas.Float](a []T, lda, m int, x, y []T) {
	j := 0
	for ; j+4 <= m; j += 4 {
		var pq [8]T
		for c := range 4 {
			pq[c], pq[4+c] = -y[j+c], -x[j+c]
			col := a[(j+c)*lda : (j+c)*lda+j+4]
			for r := j + c; r < j+4; r++ {
				col[r] += pq[c]*x[r] + pq[4+c]*y[r]
			}
		}
		vec.Axpy2x4(&pq, a[j*lda+j+4:], lda, x[j+4:m], y[j+4:m])
	}
	for ; j < m; j++ {
		vec.Axpy2(-y[j], x[j:m], -x[j], y[j:m], a[j*lda+j:j*lda+m])
	}
}

// orgtrLower overwrites the n x n matrix a (leading dimension lda), which
// holds sytd2Lower's reflectors below its subdiagonal, with the orthogonal
// Q = H(0)*H(1)*...*H(n-2) they define (LAPACK's xORGTR, uplo L, with
// xORG2R): the reflectors are shifted one column right, Q's first row and
// column are those of I, and the trailing (n-1) x (n-1) block is formed by
// applying the reflectors backwards, each only to the columns it changes.
func orgtrLower[T batchlas.Float](a []T, lda, n int, tau []T) {
	if n == 0 {
		return
	}
	for j := n - 1; j >= 1; j-- {
		a[j*lda] = 0
		copy(a[j*lda+j+1:j*lda+n], a[(j-1)*lda+j+1:(j-1)*lda+n])
	}
	a[0] = 1
	clear(a[1:n])
	// org2r on the block q = a(1:n, 1:n) of order m = n-1, reflector i
	// (0-based in q) stored in q(i:m, i) with tau[i].
	m := n - 1
	for i := m - 1; i >= 0; i-- {
		qi := a[(i+1)*lda+1:] // q(:, i) starts here
		v := qi[i:m]
		if i < m-1 {
			v[0] = 1
			// Apply H(i) to q(i:m, i+1:m) from the left: column c of q
			// starts at a[(c+1)*lda+1], its rows i:m at +i.
			t := tau[i]
			vec.Reflect(v, a[(i+2)*lda+1+i:], lda, m-i-1, t)
			for r := 1; r < len(v); r++ {
				v[r] *= -t
			}
		}
		v[0] = 1 - tau[i]
		clear(qi[:i])
	}
}

// steqr computes the eigenvalues of the symmetric tridiagonal matrix with
// diagonal d[:n] and subdiagonal e[:n-1] by implicit QL or QR with
// Wilkinson-type shifts, choosing QL or QR per unreduced block by which
// end is larger (LAPACK's xSTEQR), applying the rotations to the columns
// of z (n x n, leading dimension ldz), so a z holding the Q of a reduction
// ends holding the eigenvectors (values alone come from sterf). d gets the
// eigenvalues, unsorted; e is destroyed; work holds steqrWork(n) elements:
// each iteration's rotations and the queue (rotQueue) that applies them
// to z many iterations at a time. At most qlIterPerOrder*n iterations are
// made; on running out it returns the number of subdiagonal entries not yet zero (1..n-1),
// else 0. Every convergence test is written so that a NaN fails it.
func steqr[T batchlas.Float](d, e, z []T, ldz, n int, work []T) int {
	if n <= 1 {
		return 0
	}
	d, e = d[:n], e[:n-1]
	eps := epsOf[T]()
	eps2 := eps * eps
	safmin := safminOf[T]()
	safmax := 1 / safmin
	ssfmax := sqrt(safmax) / 3
	ssfmin := sqrt(safmin) / eps2
	wc, ws := work[:n-1], work[n-1:2*(n-1)]
	q := newRotQueue(z, ldz, n, work[2*n:steqrWork(n)])
	nmaxit := n * qlIterPerOrder
	jtot := 0
	l1 := 0
	for {
		if l1 > n-1 {
			q.flush()
			return 0 // every block split off and converged
		}
		if l1 > 0 {
			e[l1-1] = 0
		}
		// Find the end m of the unreduced block starting at l1.
		m := l1
		for ; m < n-1; m++ {
			tst := abs(e[m])
			if tst == 0 {
				break
			}
			if tst <= sqrt(abs(d[m]))*sqrt(abs(d[m+1]))*eps {
				e[m] = 0
				break
			}
		}
		l, lend := l1, m
		lsv, lendsv := l, lend
		l1 = m + 1
		if lend == l {
			continue
		}
		// Scale the block into a safe range.
		anorm := maxAbsTri(d[l:lend+1], e[l:lend])
		iscale := 0
		if anorm == 0 {
			continue
		}
		if !(anorm <= ssfmax) { // also a NaN, scaled to NaN
			iscale = 1
			scaleTri(ssfmax/anorm, d[l:lend+1], e[l:lend])
		} else if anorm < ssfmin {
			iscale = 2
			scaleTri(ssfmin/anorm, d[l:lend+1], e[l:lend])
		}
		// QL when the bottom end is the larger, else QR.
		if abs(d[lend]) < abs(d[l]) {
			l, lend = lendsv, lsv
		}
		if lend > l {
			// QL iteration: look for a small subdiagonal entry.
			for l <= lend {
				m = l
				for ; m < lend; m++ {
					tst := e[m] * e[m]
					if tst <= eps2*abs(d[m])*abs(d[m+1])+safmin {
						break
					}
				}
				if m < lend {
					e[m] = 0
				}
				p := d[l]
				if m == l {
					// An eigenvalue found.
					d[l] = p
					l++
					continue
				}
				if m == l+1 {
					// A 2x2 block: solved directly.
					rt1, rt2, c, s := laev2(d[l], e[l], d[l+1], true)
					wc[l], ws[l] = c, s
					q.push(false, l, 2, wc[l:l+1], ws[l:l+1])
					d[l], d[l+1] = rt1, rt2
					e[l] = 0
					l += 2
					continue
				}
				if jtot == nmaxit {
					break
				}
				jtot++
				// Form the shift.
				g := (d[l+1] - p) / (2 * e[l])
				r := hypot(g, 1)
				g = d[m] - p + e[l]/(g+sign(r, g))
				s, c := T(1), T(1)
				p = 0
				for i := m - 1; i >= l; i-- {
					f := s * e[i]
					b := c * e[i]
					c, s, r = lartg(g, f)
					if i != m-1 {
						e[i+1] = r
					}
					g = d[i+1] - p
					r = (d[i]-g)*s + 2*c*b
					p = s * r
					d[i+1] = g + p
					g = c*r - b
					wc[i], ws[i] = c, -s
				}
				q.push(false, l, m-l+1, wc[l:m], ws[l:m])
				d[l] -= p
				e[l] = g
			}
		} else {
			// QR iteration: look for a small superdiagonal entry.
			for l >= lend {
				m = l
				for ; m > lend; m-- {
					tst := e[m-1] * e[m-1]
					if tst <= eps2*abs(d[m])*abs(d[m-1])+safmin {
						break
					}
				}
				if m > lend {
					e[m-1] = 0
				}
				p := d[l]
				if m == l {
					d[l] = p
					l--
					continue
				}
				if m == l-1 {
					rt1, rt2, c, s := laev2(d[l-1], e[l-1], d[l], true)
					wc[l-1], ws[l-1] = c, s
					q.push(true, l-1, 2, wc[l-1:l], ws[l-1:l])
					d[l-1], d[l] = rt1, rt2
					e[l-1] = 0
					l -= 2
					continue
				}
				if jtot == nmaxit {
					break
				}
				jtot++
				g := (d[l-1] - p) / (2 * e[l-1])
				r := hypot(g, 1)
				g = d[m] - p + e[l-1]/(g+sign(r, g))
				s, c := T(1), T(1)
				p = 0
				for i := m; i <= l-1; i++ {
					f := s * e[i]
					b := c * e[i]
					c, s, r = lartg(g, f)
					if i != m {
						e[i-1] = r
					}
					g = d[i] - p
					r = (d[i+1]-g)*s + 2*c*b
					p = s * r
					d[i] = g + p
					g = c*r - b
					wc[i], ws[i] = c, s
				}
				q.push(true, m, l-m+1, wc[m:l], ws[m:l])
				d[l] -= p
				e[l-1] = g
			}
		}
		// Undo the scaling.
		switch iscale {
		case 1:
			scaleTri(anorm/ssfmax, d[lsv:lendsv+1], e[lsv:lendsv])
		case 2:
			scaleTri(anorm/ssfmin, d[lsv:lendsv+1], e[lsv:lendsv])
		}
		if jtot >= nmaxit {
			// Out of iterations: the entries not yet zero are the
			// eigenvalues not converged (a block left unfinished keeps at
			// least one). None left means every block did converge, and
			// the rest of the matrix needs no iteration to finish.
			bad := 0
			for _, v := range e {
				if v != 0 {
					bad++
				}
			}
			if bad > 0 {
				q.flush()
				return bad
			}
		}
	}
}

// maxAbsTri is the largest magnitude among d and e (LAPACK's xLANST with
// 'M'); a NaN makes it NaN.
func maxAbsTri[T batchlas.Float](d, e []T) T {
	var m T
	for _, x := range [2][]T{d, e} {
		for _, v := range x {
			a := abs(v)
			if a != a {
				return a
			}
			m = max(m, a)
		}
	}
	return m
}

func scaleTri[T batchlas.Float](f T, d, e []T) {
	for i := range d {
		d[i] *= f
	}
	for i := range e {
		e[i] *= f
	}
}
