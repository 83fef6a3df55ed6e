package trial

import (
	"fmt"
	"math"
	"slices"
)

// SVDBound is the constant of gesvd's checks: ||A - U S V^T||_F /
// (||A||_F max(m, n) eps), ||U^T U - I||_F / (m eps), ||V^T V - I||_F /
// (n eps) and |s_i - s_i(ref)| / (max(m, n) eps s_max) stay below it.
const SVDBound = 64

// SingularValues are the singular values of a in descending order, by
// plain cyclic one-sided Jacobi in float64 on a copy: the reference the
// kernels are checked against, sharing no code with any of them (and no
// vendor library, which the ops' trials may not import).
func SingularValues(a Dense) []float64 {
	// Scaled by a power of two so that the squares neither overflow nor
	// underflow (entries near 1e300 or 1e-300), exactly undone at the end.
	e := pow2Scale(a)
	a = scaled(a, math.Ldexp(1, -e))
	m, n := a.R, a.C
	g := a
	if m < n {
		g = a.Op(true)
		m, n = n, m
	} else {
		g = Dense{R: m, C: n, V: slices.Clone(a.V)}
	}
	col := func(j int) []float64 { return g.V[j*m : (j+1)*m] }
	for sweep := 0; sweep < 100; sweep++ {
		rotated := false
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				x, y := col(p), col(q)
				var alpha, beta, gamma float64
				for i := range x {
					alpha += x[i] * x[i]
					beta += y[i] * y[i]
					gamma += x[i] * y[i]
				}
				if gamma == 0 || math.Abs(gamma) <= 1e-15*math.Sqrt(alpha*beta) {
					continue
				}
				rotated = true
				zeta := (beta - alpha) / (2 * gamma)
				t := math.Copysign(1, zeta) / (math.Abs(zeta) + math.Sqrt(1+zeta*zeta))
				c := 1 / math.Sqrt(1+t*t)
				s := c * t
				for i := range x {
					xi, yi := x[i], y[i]
					x[i] = c*xi - s*yi
					y[i] = s*xi + c*yi
				}
			}
		}
		if !rotated {
			break
		}
	}
	sv := make([]float64, n)
	for j := range sv {
		var s float64
		for _, v := range col(j) {
			s += v * v
		}
		sv[j] = math.Ldexp(math.Sqrt(s), e)
	}
	slices.SortFunc(sv, func(x, y float64) int {
		switch {
		case x > y:
			return -1
		case x < y:
			return 1
		}
		return 0
	})
	return sv
}

// CheckSVD checks a singular value decomposition of orig (m x n) in
// float64, independently of every kernel: s (min(m, n) values) descending
// and within SVDBound max(m, n) eps s_max of SingularValues(orig); where u
// (m x p) and vt (q x n) are given (non-nil), their columns and rows
// orthonormal within SVDBound m eps and n eps in the Frobenius norm, and,
// where both are, U S V^T equal to orig within SVDBound max(m, n) eps
// ||orig||_F (over their first min(m, n) vectors). A NaN anywhere fails.
func CheckSVD(what string, orig Dense, s []float64, u, vt *Dense, eps float64) error {
	m, n := orig.R, orig.C
	k := min(m, n)
	ref := SingularValues(orig)
	smax := 0.0
	if k > 0 {
		smax = ref[0]
	}
	tol := SVDBound * float64(max(m, n)) * eps * smax
	for i := range k {
		if !(s[i] >= 0) || i > 0 && !(s[i] <= s[i-1]) {
			return fmt.Errorf("%s: singular values not descending and non-negative at %d: %v", what, i, s[:k])
		}
		if d := math.Abs(s[i] - ref[i]); !(d <= tol) {
			return fmt.Errorf("%s: singular value %d is %.17g, the reference %.17g (bound %.3g)", what, i, s[i], ref[i], tol)
		}
	}
	if u != nil {
		if err := checkOrthonormal(what+": U's columns", *u, float64(m)*eps); err != nil {
			return err
		}
	}
	if vt != nil {
		if err := checkOrthonormal(what+": V^T's rows", vt.Op(true), float64(n)*eps); err != nil {
			return err
		}
	}
	if u == nil || vt == nil {
		return nil
	}
	// The residual of the scaled problem (see SingularValues).
	sc := math.Ldexp(1, -pow2Scale(orig))
	var na, nr float64
	for c := range n {
		for r := range m {
			var x float64
			for l := range k {
				x += u.At(r, l) * (s[l] * sc) * vt.At(l, c)
			}
			a := orig.At(r, c) * sc
			na += a * a
			nr += (a - x) * (a - x)
		}
	}
	bound := SVDBound * float64(max(m, n)) * eps * math.Sqrt(na)
	if r := math.Sqrt(nr); !(r <= bound) {
		return fmt.Errorf("%s: ||A - U S V^T||_F = %.3g > %.3g (%d x %d)", what, r, bound, m, n)
	}
	return nil
}

// checkOrthonormal checks that the columns of q are orthonormal: ||Q^T Q -
// I||_F <= SVDBound scale.
func checkOrthonormal(what string, q Dense, scale float64) error {
	var e float64
	for i := range q.C {
		for j := range q.C {
			var d float64
			for r := range q.R {
				d += q.At(r, i) * q.At(r, j)
			}
			if i == j {
				d--
			}
			e += d * d
		}
	}
	if e = math.Sqrt(e); !(e <= SVDBound*scale) {
		return fmt.Errorf("%s are not orthonormal: ||Q^T Q - I||_F = %.3g > %.3g", what, e, SVDBound*scale)
	}
	return nil
}

// pow2Scale is the exponent e with |a_ij| 2^-e below 1 for every entry of
// a (0 for a zero or non-finite a).
func pow2Scale(a Dense) int {
	big := 0.0
	for _, x := range a.V {
		big = max(big, math.Abs(x))
	}
	if big == 0 || math.IsInf(big, 0) || math.IsNaN(big) {
		return 0
	}
	_, e := math.Frexp(big)
	return e
}

// scaled is a copy of a times f.
func scaled(a Dense, f float64) Dense {
	out := Dense{R: a.R, C: a.C, V: make([]float64, len(a.V))}
	for i, x := range a.V {
		out.V[i] = x * f
	}
	return out
}
