// Package condest estimates the 1-norm of the inverse of a matrix that is
// known only through solves with it and with its transpose: the kernel of
// the gecon and pocon ops, which turn the estimate into a reciprocal
// condition number.
//
// The algorithm is Hager's method as refined by Higham (the one LAPACK's
// xLACN2 implements): starting from the vector of 1/n, alternate a solve
// with A^-1 and one with A^-T to climb towards the column of A^-1 with the
// largest 1-norm, at most five times, then try one more vector of
// alternating signs and growing magnitude that catches the matrices on
// which the climb stalls. It costs about four to eleven solves and gives a
// lower bound of ||A^-1||_1 that is almost always within a factor of three
// of it.
package condest

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// Solver overwrites x with A^-1*x (trans false) or A^-T*x (trans true).
type Solver[T batchlas.Float] interface {
	Solve(x []T, trans bool)
}

// maxIter bounds the climbing steps, as xLACN2's ITMAX does.
const maxIter = 5

// InvNorm1 estimates ||A^-1||_1 for the n x n matrix A behind s, using x
// and sgn (each of length at least n) as scratch. finite is false when a
// solve produced an Inf or a NaN (A is singular to working precision, or
// its inverse overflows); the estimate is then meaningless.
//
// The NaN rule: a NaN in a solve's result makes finite false before any
// comparison could take it for convergence.
func InvNorm1[T batchlas.Float, S Solver[T]](n int, x, sgn []T, s S) (est float64, finite bool) {
	x, sgn = x[:n], sgn[:n]
	if n == 0 {
		return 0, true
	}
	for i := range x {
		x[i] = T(1) / T(n)
	}
	s.Solve(x, false)
	est, ok := norm1(x)
	if !ok {
		return 0, false
	}
	if n == 1 {
		return est, true
	}
	signs(sgn, x)
	copy(x, sgn)
	s.Solve(x, true)
	if !allFinite(x) {
		return 0, false
	}
	j := argmaxAbs(x)
	for iter := 2; ; iter++ {
		// x = e_j: A^-1 e_j is column j of A^-1, whose norm is a lower bound.
		clear(x)
		x[j] = 1
		s.Solve(x, false)
		old := est
		est, ok = norm1(x)
		if !ok {
			return 0, false
		}
		if sameSigns(sgn, x) || est <= old {
			// Converged (the sign vector repeats) or no longer climbing.
			est = max(est, old)
			break
		}
		signs(sgn, x)
		copy(x, sgn)
		s.Solve(x, true)
		if !allFinite(x) {
			return 0, false
		}
		last := j
		j = argmaxAbs(x)
		if abs(x[last]) == abs(x[j]) || iter >= maxIter {
			break
		}
	}
	// The alternating vector x_i = (-1)^i (1 + i/(n-1)): a safeguard for
	// the matrices whose climb stops short (Higham 1988, section 4).
	for i := range x {
		v := 1 + T(i)/T(n-1)
		if i%2 == 1 {
			v = -v
		}
		x[i] = v
	}
	s.Solve(x, false)
	alt, ok := norm1(x)
	if !ok {
		return 0, false
	}
	return max(est, 2*alt/(3*float64(n))), true
}

// norm1 is sum |x_i| in float64, ok false when it is not finite.
func norm1[T batchlas.Float](x []T) (float64, bool) {
	var s float64
	for _, v := range x {
		s += math.Abs(float64(v))
	}
	return s, !math.IsInf(s, 0) && !math.IsNaN(s)
}

// allFinite reports whether every x_i is finite (its 1-norm is).
func allFinite[T batchlas.Float](x []T) bool {
	_, ok := norm1(x)
	return ok
}

// signs sets sgn_i to +1 where x_i >= 0 and -1 elsewhere.
func signs[T batchlas.Float](sgn, x []T) {
	for i, v := range x {
		if v >= 0 {
			sgn[i] = 1
		} else {
			sgn[i] = -1
		}
	}
}

// sameSigns reports whether sign(x_i) == sgn_i for every i.
func sameSigns[T batchlas.Float](sgn, x []T) bool {
	for i, v := range x {
		if (v >= 0) != (sgn[i] > 0) {
			return false
		}
	}
	return true
}

// argmaxAbs is the first index of the largest |x_i|; x is finite.
func argmaxAbs[T batchlas.Float](x []T) int {
	j, m := 0, abs(x[0])
	for i, v := range x {
		if a := abs(v); a > m {
			j, m = i, a
		}
	}
	return j
}

func abs[T batchlas.Float](v T) T {
	if v < 0 {
		return -v
	}
	return v
}

// FromNorm is the rcond a matrix gets from its norm alone, and whether it
// applies: 0 for a norm of 0 or +Inf (as LAPACK gives), NaN for a NaN norm
// (nothing can be said). A negative norm is the caller's error to refuse.
func FromNorm[T batchlas.Float](anorm T) (T, bool) {
	switch {
	case anorm != anorm:
		return anorm, true
	case anorm == 0 || math.IsInf(float64(anorm), 1):
		return 0, true
	}
	return 0, false
}

// Finite reports whether the part of the n x n matrix m (leading
// dimension ld) that a factor occupies holds no Inf or NaN: all of it for
// an LU factor (part 0), the lower ('L') or upper ('U') triangle for a
// Cholesky factor. It costs one pass over the factor against the
// estimate's several solves.
func Finite[T batchlas.Float](m []T, ld, n int, part byte) bool {
	var s T
	for c := range n {
		lo, hi := 0, n
		switch part {
		case 'L':
			lo = c
		case 'U':
			hi = c + 1
		}
		for _, v := range m[c*ld+lo : c*ld+hi] {
			s += v - v // 0 for a finite v, NaN for Inf or NaN
		}
	}
	return s == s
}

// Scale is the power of two nearest above anorm (finite, positive): the
// solves run on A/s, whose inverse is s*A^-1, so that neither a tiny nor a
// huge A overflows them while its condition is moderate. Exact, being a
// power of two.
func Scale[T batchlas.Float](anorm T) T {
	_, e := math.Frexp(float64(anorm))
	return T(math.Ldexp(1, e))
}

// Rcond is 1/(anorm*||A^-1||) from InvNorm1's estimate est of
// ||(A/s)^-1|| = s*||A^-1||, computed as s/anorm/est so that it cannot
// overflow; 0 when the estimate is unusable (a solve overflowed: A is
// singular to working precision).
func Rcond[T batchlas.Float](anorm, s T, est float64, finite bool) T {
	if !finite || !(est > 0) {
		return 0
	}
	return T(float64(s) / float64(anorm) / est)
}
