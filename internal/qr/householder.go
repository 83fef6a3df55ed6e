package qr

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// is32 reports whether T is float32.
func is32[T batchlas.Float]() bool {
	var z T
	_, ok := any(z).(float32)
	return ok
}

// safeMin is LAPACK's dlamch('S')/dlamch('E') for T: the smallest
// magnitude whose reciprocal does not overflow, divided by the unit
// roundoff (2^-969 for float64, 2^-102 for float32).
func safeMin[T batchlas.Float]() T {
	if is32[T]() {
		return T(math.Ldexp(1, -102))
	}
	return T(math.Ldexp(1, -969))
}

// shortVector is the length below which dot and axpy loop in Go: a call
// into internal/vec's assembly costs more than a few scalar updates
// (ormqr side=L on 2 rows and 97 columns ran 4.7x slower through it than
// gonum's loop, Intel Xeon guest).
const shortVector = 16

// dot returns sum x[l]*y[l] over len(x) elements (internal/vec's
// kernel, AVX-512 where the device allows, from shortVector elements).
func dot[T batchlas.Float](x, y []T) T {
	if len(x) >= shortVector {
		return vec.Dot(x, y)
	}
	y = y[:len(x)]
	var s T
	for l, v := range x {
		s += v * y[l]
	}
	return s
}

// axpy does y[l] += a*x[l] over len(x) elements (internal/vec's kernel
// from shortVector elements).
func axpy[T batchlas.Float](a T, x, y []T) {
	if len(x) >= shortVector {
		vec.Axpy(a, x, y)
		return
	}
	y = y[:len(x)]
	for l, v := range x {
		y[l] += a * v
	}
}

// nrm2 is the Euclidean norm of x without overflow or harmful
// underflow: float32 sums its squares in float64 (whose range holds every
// float32 square); float64 sums squares directly and falls back to the
// scaled sum (dnrm2's) when that sum overflowed or fell low enough to
// lose digits. NaN in x gives NaN.
func nrm2[T batchlas.Float](x []T) T {
	if is32[T]() {
		s := 0.0
		for _, v := range x {
			s += float64(v) * float64(v)
		}
		return T(math.Sqrt(s))
	}
	var s T
	for _, v := range x {
		s += v * v
	}
	if f := float64(s); f >= 0x1p-900 && f <= 0x1p900 {
		return T(math.Sqrt(float64(s)))
	}
	if s != s {
		return s
	}
	scale, ssq := 0.0, 1.0
	for _, v := range x {
		if v == 0 {
			continue
		}
		a := math.Abs(float64(v))
		if math.IsInf(a, 0) {
			return T(a)
		}
		if scale < a {
			r := scale / a
			ssq = 1 + ssq*r*r
			scale = a
		} else {
			r := a / scale
			ssq += r * r
		}
	}
	return T(scale * math.Sqrt(ssq))
}

// sumSquares is sum x[l]^2 in float64 and whether it is exact enough to
// take a square root of: always for float32 (whose squares float64
// holds), for float64 when the sum is finite and neither overflowed nor
// fell into the range where squares lose digits.
func sumSquares[T batchlas.Float](x []T) (float64, bool) {
	if is32[T]() {
		s := 0.0
		for _, v := range x {
			s += float64(v) * float64(v)
		}
		return s, s <= math.MaxFloat64
	}
	var s0, s1 T
	l := 0
	for ; l+2 <= len(x); l += 2 {
		s0 += x[l] * x[l]
		s1 += x[l+1] * x[l+1]
	}
	if l < len(x) {
		s0 += x[l] * x[l]
	}
	s := float64(s0 + s1)
	return s, s >= 0x1p-900 && s <= 0x1p900
}

// maxSafe is a bound below overflow for beta and 1/(alpha - beta).
func maxSafe[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p120)
	}
	return T(math.Ldexp(1, 1000))
}

// lapy2 is sqrt(x^2 + y^2) without overflow.
func lapy2[T batchlas.Float](x, y T) T {
	return T(math.Hypot(float64(x), float64(y)))
}

// Larfg generates the reflector H = I - tau v v^T with H (alpha, x)^T =
// (beta, 0)^T (LAPACK's dlarfg): n is the length of (alpha, x), x holds
// its n-1 trailing elements contiguously. On return *alpha is beta, x
// holds v(1:n) (v(0) = 1 is implied) and tau is returned: 0 when x is
// zero (H = I, alpha and x unchanged), else in [1, 2], beta =
// -sign(alpha) ||(alpha, x)||. A beta below safeMin is rescaled as
// dlarfg does, at most 20 times, so NaN input ends with NaN output.
func Larfg[T batchlas.Float](n int, alpha *T, x []T) (tau T) {
	if n <= 1 {
		return 0
	}
	x = x[:n-1]
	a := *alpha
	if ss, ok := sumSquares(x); ok {
		// No overflow nor harmful underflow: beta from the sum of squares
		// directly (sqrt(alpha^2 + ||x||^2), dlapy2's value within
		// rounding), and no rescaling needed.
		if ss == 0 {
			return 0
		}
		if af := math.Abs(float64(a)); af < 0x1p450 {
			if r := T(math.Sqrt(float64(a)*float64(a) + ss)); r >= safeMin[T]() && r <= maxSafe[T]() {
				beta := -T(math.Copysign(float64(r), float64(a)))
				tau = (beta - a) / beta
				s := 1 / (a - beta)
				for l := range x {
					x[l] *= s
				}
				*alpha = beta
				return tau
			}
		}
	}
	xnorm := nrm2(x)
	if xnorm == 0 {
		return 0
	}
	beta := -T(math.Copysign(float64(lapy2(a, xnorm)), float64(a)))
	safmin := safeMin[T]()
	knt := 0
	if abs(beta) < safmin {
		// xnorm and beta may be inaccurate: scale x and recompute them.
		rsafmn := 1 / safmin
		for {
			knt++
			for l := range x {
				x[l] *= rsafmn
			}
			beta *= rsafmn
			a *= rsafmn
			if !(abs(beta) < safmin) || knt >= 20 {
				break
			}
		}
		xnorm = nrm2(x)
		beta = -T(math.Copysign(float64(lapy2(a, xnorm)), float64(a)))
	}
	tau = (beta - a) / beta
	s := 1 / (a - beta)
	for l := range x {
		x[l] *= s
	}
	for j := 0; j < knt; j++ {
		beta *= safmin
	}
	*alpha = beta
	return tau
}

func abs[T batchlas.Float](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// Larf applies H = I - tau v v^T to the m x n matrix c (column-major,
// leading dimension ldc) from the left (H C; v has m elements) or the
// right (C H; v has n elements), LAPACK's dlarf. v[0] is never read: it
// is taken as 1, so v may start at a factor's diagonal, where R is
// kept. work needs n (left) or m (right) elements; the left form does
// not use it. tau == 0 leaves c untouched.
func Larf[T batchlas.Float](left bool, m, n int, v []T, tau T, c []T, ldc int, work []T) {
	if tau == 0 || m <= 0 || n <= 0 {
		return
	}
	if left {
		tail := v[1:m]
		for j := 0; j < n; j++ {
			col := c[j*ldc : j*ldc+m]
			s := tau * (col[0] + dot(tail, col[1:]))
			col[0] -= s
			axpy(-s, tail, col[1:])
		}
		return
	}
	// w = C v, then C -= tau w v^T. Columns of vector length go four at a
	// time through internal/vec (w read and written once per four columns,
	// one call instead of four: ormqr side=R on 91x32 matrices, k=8, spent
	// most of its time in the calls' overhead).
	w := work[:m]
	copy(w, c[:m])
	j := 1
	// From one full vector of rows on, the four-column kernel's call costs
	// less than the loop (float64 ormqr side=R m=8 and 11, n=32 k=2: 1.3-1.7x
	// faster through it than with the Go loop below 16 rows, Intel Xeon).
	wide := m >= vec.Width[T]()
	if wide {
		var dots [4]T // unused: DotAxpy4's dot products with C's column 0
		for ; j+4 <= n; j += 4 {
			t4 := [4]T{v[j], v[j+1], v[j+2], v[j+3]}
			vec.DotAxpy4(&t4, c[j*ldc:], ldc, c[:m], w, &dots)
		}
	}
	for ; j < n; j++ {
		axpy(v[j], c[j*ldc:j*ldc+m], w)
	}
	axpy(-tau, w, c[:m])
	j = 1
	if wide {
		for ; j+4 <= n; j += 4 {
			// The second vector's coefficients are 0: Axpy2x4 adds
			// pq[c]*w and 0*w to column c.
			pq := [8]T{-tau * v[j], -tau * v[j+1], -tau * v[j+2], -tau * v[j+3]}
			vec.Axpy2x4(&pq, c[j*ldc:], ldc, w, w)
		}
	}
	for ; j < n; j++ {
		axpy(-tau*v[j], w, c[j*ldc:j*ldc+m])
	}
}

// larfOwn is Larf from the left for a v the caller may write: v[0] is
// set to 1 for the call and restored (LAPACK's dgeqr2 and dorg2r do the
// same), so that all n columns go through one vector kernel.
func larfOwn[T batchlas.Float](m, n int, v []T, tau T, c []T, ldc int) {
	if tau == 0 || m <= 0 || n <= 0 {
		return
	}
	head := v[0]
	v[0] = 1
	vec.Reflect(v[:m], c, ldc, n, tau)
	v[0] = head
}

// Geqr2 computes the QR factorisation of the m x n matrix a (column-major,
// leading dimension lda) one column at a time (LAPACK's dgeqr2): R on and
// above the diagonal, the tails of the min(m, n) reflectors below it,
// their factors in tau. work needs n elements (unused by this form, kept
// for LAPACK's signature).
func Geqr2[T batchlas.Float](m, n int, a []T, lda int, tau []T, work []T) {
	k := min(m, n)
	for i := 0; i < k; i++ {
		ii := i + i*lda
		tau[i] = Larfg(m-i, &a[ii], a[ii+1:ii+m-i])
		if i < n-1 {
			larfOwn(m-i, n-i-1, a[ii:], tau[i], a[ii+lda:], lda)
		}
	}
}

// GeqrfBlocked is LAPACK's dgeqrf with nx = 0: panels of nb columns are
// factored (by GeqrfBlocked itself with nb/2 while nb > panelMin, else
// by Geqr2) and, while columns remain to their right, their block
// reflector is applied to those columns (H^T from the left, every
// product on the tile). t needs nb*nb elements, work BlockedWork(m, n,
// nb). nb < 1 or nb >= min(m, n) is Geqr2 itself.
func GeqrfBlocked[T batchlas.Float](m, n int, a []T, lda int, tau []T, nb int, t, work []T) {
	k := min(m, n)
	if nb < 1 || nb >= k {
		Geqr2(m, n, a, lda, tau, work)
		return
	}
	for i := 0; i < k; i += nb {
		ib := min(nb, k-i)
		ii := i + i*lda
		if nb > panelMin {
			GeqrfBlocked(m-i, ib, a[ii:], lda, tau[i:], nb/2, t, work)
		} else {
			Geqr2(m-i, ib, a[ii:], lda, tau[i:], work)
		}
		if i+ib < n {
			applyBlock(true, true, m-i, n-i-ib, ib, a[ii:], lda, tau[i:], t, nb, a[ii+ib*lda:], lda, work)
		}
	}
}
