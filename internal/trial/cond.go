package trial

import (
	"fmt"
	"math"
)

// InverseNorm is ||A^-1|| of the square matrix a in the 1-norm (inf false)
// or the infinity norm (inf true), from its inverse computed by
// Gauss-Jordan elimination with partial pivoting in float64: the
// reference the condition estimates are checked against, sharing no code
// with any kernel. An exactly singular a is an error.
func InverseNorm(a Dense, inf bool) (float64, error) {
	n := a.R
	m := NewDense(n, 2*n)
	for j := range n {
		for i := range n {
			m.V[i+j*n] = a.At(i, j)
		}
		m.V[j+(n+j)*n] = 1
	}
	for k := range n {
		p := k
		for i := k + 1; i < n; i++ {
			if math.Abs(m.V[i+k*n]) > math.Abs(m.V[p+k*n]) {
				p = i
			}
		}
		piv := m.V[p+k*n]
		if !(piv != 0) {
			return 0, fmt.Errorf("the reference inverse: column %d has no nonzero pivot", k)
		}
		if p != k {
			for j := range 2 * n {
				m.V[p+j*n], m.V[k+j*n] = m.V[k+j*n], m.V[p+j*n]
			}
		}
		for j := range 2 * n {
			m.V[k+j*n] /= piv
		}
		for i := range n {
			if f := m.V[i+k*n]; i != k && f != 0 {
				for j := range 2 * n {
					m.V[i+j*n] -= f * m.V[k+j*n]
				}
			}
		}
	}
	var out float64
	for x := range n {
		var s float64
		for y := range n {
			if inf {
				s += math.Abs(m.V[x+(n+y)*n]) // row x of the inverse
			} else {
				s += math.Abs(m.V[y+(n+x)*n]) // column x
			}
		}
		out = max(out, s)
	}
	return out, nil
}

// CheckRcond checks an estimate of the reciprocal condition number
// against the exact one, want = 1/(||A||*||A^-1||): an estimate of
// ||A^-1|| is a lower bound, so got may not be below want (up to tol,
// relative, for the rounding of the solves), nor above it by more than
// the factor slack (the estimator's worst case on the matrices tested).
func CheckRcond(what string, got, want, tol, slack float64) error {
	if !(got >= want*(1-tol)) || !(got <= want*slack) {
		return fmt.Errorf("%s: rcond %g, the exact value is %g (want within [%g, %g])", what, got, want, want*(1-tol), want*slack)
	}
	return nil
}
