package trial

import (
	"fmt"
	"math"
)

// QRBound is the constant of geqrf's residual checks: ||A - QR||_F /
// (||A||_F max(m, n) eps) and each reflector's departure from
// orthogonality, |tau v^T v - 2| / (m eps), stay below it.
const QRBound = 64

// CheckQRFactor checks a QR factor f of orig (m x n) as LAPACK's geqrf
// leaves it, with its min(m, n) factors tau, in float64 and
// independently of every kernel: each reflector H_j = I - tau_j v_j v_j^T
// (v_j(j) = 1, its tail below f's diagonal) is orthogonal (tau_j = 0, or
// tau_j v_j^T v_j = 2 within QRBound m eps), and Q R, formed by applying
// the reflectors to R (f's upper trapezoid) one at a time, last first,
// equals orig within QRBound max(m, n) eps ||orig||_F in the Frobenius
// norm. A NaN anywhere fails.
func CheckQRFactor(what string, orig, f Dense, tau []float64, eps float64) error {
	m, n := orig.R, orig.C
	k := min(m, n)
	for j := 0; j < k; j++ {
		t := tau[j]
		if t == 0 {
			continue
		}
		vtv := 1.0
		for l := j + 1; l < m; l++ {
			vtv += f.V[l+j*m] * f.V[l+j*m]
		}
		if d := math.Abs(t*vtv - 2); !(d <= QRBound*float64(m)*eps) {
			return fmt.Errorf("%s: reflector %d is not orthogonal: tau v^T v = %.6g, want 2", what, j, t*vtv)
		}
	}
	qr := NewDense(m, n)
	for c := 0; c < n; c++ {
		for r := 0; r <= min(c, m-1); r++ {
			qr.V[r+c*m] = f.V[r+c*m]
		}
	}
	for j := k - 1; j >= 0; j-- {
		for c := 0; c < n; c++ {
			col := qr.V[c*m : (c+1)*m]
			d := col[j]
			for l := j + 1; l < m; l++ {
				d += f.V[l+j*m] * col[l]
			}
			d *= tau[j]
			col[j] -= d
			for l := j + 1; l < m; l++ {
				col[l] -= d * f.V[l+j*m]
			}
		}
	}
	var na, nr float64
	for i, x := range orig.V {
		d := x - qr.V[i]
		na += x * x
		nr += d * d
	}
	bound := QRBound * float64(max(m, n)) * eps * math.Sqrt(na)
	if r := math.Sqrt(nr); !(r <= bound) {
		return fmt.Errorf("%s: ||A - QR||_F = %.3g > %.3g (%d x %d)", what, r, bound, m, n)
	}
	return nil
}
