package svd

import "github.com/batchlas-go/batchlas"

// maxSweeps is the sweep limit. One-sided Jacobi converges quadratically
// once the columns are nearly orthogonal and takes some 5 to 15 sweeps on
// the matrices of the tests; 60 leaves room for hard cases while bounding
// the time a pathological input can take. A variable so that tests can
// force the not-converged path.
var maxSweeps = 60

// sweeps orthogonalises the n columns of the n x n matrix g (leading
// dimension n) by one-sided Jacobi rotations, applying each to the columns
// of v too when v is not nil (v is set to the identity first, so on return
// g_in = g_out * v^T). It returns 0 when a sweep rotated no pair, else, after
// maxSweeps sweeps, the number of columns belonging to a pair that still
// fails the test; mark (n elements) is scratch for that count.
func sweeps[T batchlas.Float](n int, g, v, mark []T) int {
	if v != nil {
		setIdentity(n, n, v, n)
	}
	if n < 2 {
		return 0
	}
	// tol: see the package doc, step 5.
	tol := epsilon[T]() * sqrt(T(n))
	small := smallSquare[T]()
	for range maxSweeps {
		rotated := false
		for p := 0; p < n-1; p++ {
			gp := g[p*n : p*n+n]
			for q := p + 1; q < n; q++ {
				gq := g[q*n : q*n+n]
				app, aqq, apq := dot3(gp, gq)
				if converged(app, aqq, apq, tol, small) {
					continue
				}
				c, s, swap := rotation(app, aqq, apq)
				rot(gp, gq, c, s, swap)
				if v != nil {
					rot(v[p*n:p*n+n], v[q*n:q*n+n], c, s, swap)
				}
				rotated = true
			}
		}
		if !rotated {
			return 0
		}
	}
	return unconverged(n, g, mark)
}

// unconverged counts, after the sweep limit, the columns of the n x n g
// that some pair still leaves unconverged (sweeps' info); mark (n
// elements) is scratch.
func unconverged[T batchlas.Float](n int, g, mark []T) int {
	tol := epsilon[T]() * sqrt(T(n))
	small := smallSquare[T]()
	mark = mark[:n]
	clear(mark)
	for p := 0; p < n-1; p++ {
		gp := g[p*n : p*n+n]
		for q := p + 1; q < n; q++ {
			app, aqq, apq := dot3(gp, g[q*n:q*n+n])
			if !converged(app, aqq, apq, tol, small) {
				mark[p], mark[q] = 1, 1
			}
		}
	}
	info := 0
	for _, x := range mark {
		if x != 0 {
			info++
		}
	}
	return info
}

// converged reports whether columns with squared norms app, aqq and dot
// product apq need no rotation: one of them is negligible (below small),
// or their cosine is at most tol. Written so that NaN anywhere gives
// false: a NaN pair is never taken as converged. The norms are multiplied
// after their square roots, since app*aqq may overflow.
func converged[T batchlas.Float](app, aqq, apq, tol, small T) bool {
	if app < small || aqq < small {
		return true
	}
	return abs(apq) <= tol*sqrt(app)*sqrt(aqq)
}

// dot3 returns x.x, y.y and x.y in one pass over both columns, each sum
// split over even and odd rows: six independent chains of additions
// instead of three, which at the orders the sweeps see (after the QR, n
// rows) is what bounds the loop.
func dot3[T batchlas.Float](x, y []T) (xx, yy, xy T) {
	y = y[:len(x)]
	var xx1, yy1, xy1 T
	i := 0
	for ; i+1 < len(x); i += 2 {
		a0, b0, a1, b1 := x[i], y[i], x[i+1], y[i+1]
		xx += a0 * a0
		yy += b0 * b0
		xy += a0 * b0
		xx1 += a1 * a1
		yy1 += b1 * b1
		xy1 += a1 * b1
	}
	if i < len(x) {
		a, b := x[i], y[i]
		xx += a * a
		yy += b * b
		xy += a * b
	}
	return xx + xx1, yy + yy1, xy + xy1
}

// rotation returns the Jacobi rotation (c, s) that makes columns x, y with
// x.x = app, y.y = aqq, x.y = apq orthogonal under
//
//	x' = c x - s y,  y' = s x + c y,
//
// and swap, true when y' is the longer of the two (aqq > app), so that the
// caller stores the pair exchanged and the longer column stays first.
// The norms change by -t apq (x) and +t apq (y), and t apq has the sign of
// aqq - app: y grows exactly when aqq > app.
func rotation[T batchlas.Float](app, aqq, apq T) (c, s T, swap bool) {
	d := aqq - app
	twoApq := 2 * apq
	var t T
	if abs(d) > bigZeta[T]()*abs(twoApq) {
		// |zeta| is so large that t = 1/(2 zeta) to working precision;
		// forming zeta (and zeta^2) could overflow.
		t = apq / d
	} else {
		zeta := d / twoApq
		t = 1 / (abs(zeta) + sqrt(1+zeta*zeta))
		if zeta < 0 {
			t = -t
		}
	}
	c = 1 / sqrt(1+t*t)
	return c, c * t, d > 0
}

// rot applies the rotation of rotation to the columns x and y, storing
// (x', y') or, when swap, (y', x').
func rot[T batchlas.Float](x, y []T, c, s T, swap bool) {
	y = y[:len(x)]
	if swap {
		for i, a := range x {
			b := y[i]
			x[i] = s*a + c*b
			y[i] = c*a - s*b
		}
		return
	}
	for i, a := range x {
		b := y[i]
		x[i] = c*a - s*b
		y[i] = s*a + c*b
	}
}
