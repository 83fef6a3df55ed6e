package lanes

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// Tridiag reduces a group of Lanes[T]() symmetric n x n matrices
// interleaved in a to tridiagonal form T = Q^T*A*Q by Householder
// reflectors (LAPACK's xSYTD2, lower triangle, unblocked): only the lower
// triangle is read and written. d gets the n diagonal vectors of T, e its
// n-1 subdiagonal ones; the reflectors are left below the subdiagonal (tau
// is not kept: Tridiag is for eigenvalues only). Columns are ld >= n
// vectors apart (GroupLD); w is scratch of n vectors.
//
// Reflector i is formed from column i below its diagonal as xLARFG forms
// it, with one difference: the column's norm is the plain square root of
// its sum of squares, without xLARFG's rescaling loop for tiny norms. The
// caller scales each matrix so that its largest entry lies within
// syev's safe range first (entries between about 2^-485 and 2^485 for
// float64), so no square overflows; entries more than about 2^-511 (2^-63
// for float32) below the largest square to zero, which changes the
// matrix by less than its largest entry times the unit roundoff.
func Tridiag[T batchlas.Float](a []T, n, ld int, d, e, w []T) {
	L := Lanes[T]()
	if n == 0 {
		return
	}
	a = a[:((n-1)*ld+n)*L]
	d, w = d[:n*L], w[:n*L]
	if n > 1 {
		e = e[:(n-1)*L]
	}
	tridiagRun(a, n, ld, d, e, w)
}

// tridiagGo is the assembly's twin, lane by lane: the same operations in
// the same order on every entry and accumulator.
func tridiagGo[T batchlas.Float](a []T, n, ld int, d, e, w []T) {
	L := Lanes[T]()
	for l := 0; l < L; l++ {
		at := func(r, c int) *T { return &a[(c*ld+r)*L+l] }
		y := func(r int) *T { return &w[r*L+l] }
		for i := 0; i < n-1; i++ {
			// The reflector from column i: alpha = a(i+1, i) and the
			// sum of squares of the entries below it.
			alpha := *at(i+1, i)
			var s T
			for r := i + 2; r < n; r++ {
				s = fma.Of(*at(r, i), *at(r, i), s)
			}
			beta := -T(math.Copysign(float64(sqrt(fma.Of(alpha, alpha, s))), float64(alpha)))
			tau, scal := T(0), T(1)
			if s != 0 {
				tau = (beta - alpha) / beta
				scal = 1 / (alpha - beta)
			} else {
				beta = alpha
			}
			for r := i + 2; r < n; r++ {
				*at(r, i) *= scal
			}
			*at(i+1, i) = 1
			// y = A22*v, A22 = a(i+1:n, i+1:n) by columns from its lower
			// triangle, v = a(i+1:n, i).
			for r := i + 1; r < n; r++ {
				*y(r) = 0
			}
			for j := i + 1; j < n; j++ {
				t1 := *at(j, i)
				var t2 T
				*y(j) = fma.Of(*at(j, j), t1, *y(j))
				for r := j + 1; r < n; r++ {
					*y(r) = fma.Of(*at(r, j), t1, *y(r))
					t2 = fma.Of(*at(r, j), *at(r, i), t2)
				}
				*y(j) += t2
			}
			// y = tau*y, then y -= (tau/2 * y^T*v) * v.
			var dot T
			for r := i + 1; r < n; r++ {
				*y(r) *= tau
				dot = fma.Of(*y(r), *at(r, i), dot)
			}
			h := tau * -0.5 * dot
			for r := i + 1; r < n; r++ {
				*y(r) = fma.Of(h, *at(r, i), *y(r))
			}
			// A22 -= v*y^T + y*v^T, lower triangle.
			for j := i + 1; j < n; j++ {
				yj, vj := *y(j), *at(j, i)
				for r := j; r < n; r++ {
					x := fma.Of(-*at(r, i), yj, *at(r, j))
					*at(r, j) = fma.Of(-*y(r), vj, x)
				}
			}
			*at(i+1, i) = beta
			e[i*L+l] = beta
			d[i*L+l] = *at(i, i)
		}
		d[(n-1)*L+l] = *at(n-1, n-1)
	}
}
