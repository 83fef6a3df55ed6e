package syev

import "github.com/batchlas-go/batchlas"

// jacobiEig diagonalises the full symmetric n x n matrix s (leading
// dimension n) by cyclic two-sided Jacobi: sweeps over every pair p < q in
// row order, each pair whose off-diagonal entry is not negligible rotated
// to zero, until a sweep rotates nothing or jacobiSweeps sweeps are made.
// The eigenvalues are left in d[:n] (unsorted) and, when v is not nil, the
// accumulated rotations (the eigenvectors, as columns) in v (n x n,
// leading dimension n). It returns 0, or on non-convergence the number of
// columns that still hold a non-negligible off-diagonal entry (1..n).
//
// An entry s_pq is negligible when |s_pq| <= eps*sqrt(|s_pp|)*sqrt(|s_qq|)
// or it is below the underflow threshold: the relative test of Demmel and
// Veselic, under which an entry's effect on the eigenvalues is below their
// own rounding. The tests are written so that a NaN is never negligible:
// it keeps the sweeps going to the limit and is reported, never converged.
//
// Both triangles of s are kept: a rotation of the pair (p, q) updates
// columns p and q (contiguous, one tight loop) and mirrors them into rows
// p and q; v is updated by columns too.
func jacobiEig[T batchlas.Float](s []T, n int, d, v []T) int {
	s = s[:n*n]
	if v != nil {
		v = v[:n*n]
		clear(v)
		for j := 0; j < n; j++ {
			v[j*n+j] = 1
		}
	}
	eps, tiny := epsOf[T](), safminOf[T]()
	converged := n <= 1
	for sweep := 0; sweep < jacobiSweeps && !converged; sweep++ {
		rotated := false
		for p := 0; p < n-1; p++ {
			for q := p + 1; q < n; q++ {
				if negligible(s[q*n+p], s[p*n+p], s[q*n+q], eps, tiny) {
					continue
				}
				rotated = true
				rotate(s, v, n, p, q)
			}
		}
		converged = !rotated
	}
	for j := 0; j < n; j++ {
		d[j] = s[j*n+j]
	}
	if converged {
		return 0
	}
	return offColumns(s, n)
}

// offColumns is the info of a Jacobi kernel that ran out of sweeps on the
// full symmetric s (n x n, leading dimension n): the number of columns
// that still hold a non-negligible off-diagonal entry.
func offColumns[T batchlas.Float](s []T, n int) int {
	eps, tiny := epsOf[T](), safminOf[T]()
	bad := 0
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			if r != c && !negligible(s[c*n+r], s[r*n+r], s[c*n+c], eps, tiny) {
				bad++
				break
			}
		}
	}
	return bad
}

// negligible reports whether the off-diagonal entry apq of the pair with
// diagonal entries app and aqq may be taken for zero; a NaN anywhere
// makes it false.
func negligible[T batchlas.Float](apq, app, aqq, eps, tiny T) bool {
	// a <= eps*sqrt(|app|*|aqq|), squared: the matrix is scaled into
	// scaleRange (load), so neither side overflows, and an underflow of
	// the right side only makes the test stricter.
	a := abs(apq)
	return a <= tiny || a*a <= eps*eps*abs(app*aqq)
}

// rotate applies the Jacobi rotation J that zeroes s_pq: s := J^T*s*J and
// v := v*J (v may be nil). With theta = (s_qq - s_pp)/(2*s_pq) and
// t = sign(theta)/(|theta| + sqrt(theta^2 + 1)) the smaller root, c and s
// are its cosine and sine; the diagonal gets s_pp - t*s_pq and
// s_qq + t*s_pq (Rutishauser's form, which keeps them accurate).
func rotate[T batchlas.Float](s, v []T, n, p, q int) {
	app, aqq, apq := s[p*n+p], s[q*n+q], s[q*n+p]
	theta := (aqq - app) / (2 * apq)
	// t = 1/(|theta| + sqrt(theta^2 + 1)); past sqrt(max)/4, theta^2
	// would overflow and 1/(2|theta|) is t to working precision.
	at := abs(theta)
	var t T
	if at > sqrt(maxOf[T]())/4 {
		t = 1 / (2 * at)
	} else {
		t = 1 / (at + sqrt(at*at+1))
	}
	if theta < 0 {
		t = -t
	}
	c := 1 / sqrt(1+t*t)
	sn := t * c
	cp, cq := s[p*n:p*n+n], s[q*n:q*n+n]
	for k := range cp {
		x, y := cp[k], cq[k]
		cp[k] = c*x - sn*y
		cq[k] = sn*x + c*y
	}
	// The 2x2 block, exactly as Rutishauser's update gives it.
	cp[p], cq[q] = app-t*apq, aqq+t*apq
	cp[q], cq[p] = 0, 0
	// Mirror the new columns p and q into rows p and q.
	for k := 0; k < n; k++ {
		if k != p && k != q {
			s[k*n+p] = cp[k]
			s[k*n+q] = cq[k]
		}
	}
	if v != nil {
		vp, vq := v[p*n:p*n+n], v[q*n:q*n+n]
		for k := range vp {
			x, y := vp[k], vq[k]
			vp[k] = c*x - sn*y
			vq[k] = sn*x + c*y
		}
	}
}
