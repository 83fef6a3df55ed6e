// Package qrref holds the QR references of orgqr's and ormqr's checks
// (their trial.go): a package of its own, not files of internal/trial,
// because ops whose kernels import internal/trial hash its sources, and a
// file added there would make their tuned tables stale.
package qrref

import (
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/trial"
)

// The QR references of orgqr's and ormqr's checks: a float64 Householder
// QR with LAPACK's reflector convention (dgeqr2's, to make inputs) and the
// product of the reflectors applied one at a time (to check against),
// written here independently of every kernel.

// HouseholderQR overwrites a with its QR factorisation as LAPACK's
// dgeqr2 leaves it (R on and above the diagonal, the reflectors' tails
// below, their heads 1 implied) and returns the min(R, C) factors tau.
func HouseholderQR(a trial.Dense) []float64 {
	m, n := a.R, a.C
	k := min(m, n)
	tau := make([]float64, k)
	for i := 0; i < k; i++ {
		col := a.V[i*m : (i+1)*m]
		alpha := col[i]
		xnorm := 0.0
		for _, x := range col[i+1:] {
			xnorm = math.Hypot(xnorm, x)
		}
		if xnorm == 0 {
			continue // H_i = I
		}
		beta := -math.Copysign(math.Hypot(alpha, xnorm), alpha)
		tau[i] = (beta - alpha) / beta
		s := 1 / (alpha - beta)
		for l := i + 1; l < m; l++ {
			col[l] *= s
		}
		col[i] = beta
		// H_i on the columns to the right.
		for j := i + 1; j < n; j++ {
			cj := a.V[j*m : (j+1)*m]
			d := cj[i]
			for l := i + 1; l < m; l++ {
				d += col[l] * cj[l]
			}
			d *= tau[i]
			cj[i] -= d
			for l := i + 1; l < m; l++ {
				cj[l] -= d * col[l]
			}
		}
	}
	return tau
}

// ApplyReflectors returns Q c, Q^T c (left) or c Q, c Q^T (right) for Q =
// H_0 .. H_{k-1} given by the first k columns of the factor f (reflector
// tails below the diagonal, heads 1) and tau, one reflector at a time.
func ApplyReflectors(left, trans bool, f trial.Dense, tau []float64, k int, c trial.Dense) trial.Dense {
	out := trial.Dense{R: c.R, C: c.C, V: append([]float64(nil), c.V...)}
	v := func(l, i int) float64 {
		switch {
		case l == i:
			return 1
		case l < i:
			return 0
		}
		return f.At(l, i)
	}
	forward := left == trans
	for s := 0; s < k; s++ {
		i := s
		if !forward {
			i = k - 1 - s
		}
		if left {
			for j := 0; j < out.C; j++ {
				d := 0.0
				for l := i; l < out.R; l++ {
					d += v(l, i) * out.V[l+j*out.R]
				}
				d *= tau[i]
				for l := i; l < out.R; l++ {
					out.V[l+j*out.R] -= d * v(l, i)
				}
			}
		} else {
			for r := 0; r < out.R; r++ {
				d := 0.0
				for l := i; l < out.C; l++ {
					d += out.V[r+l*out.R] * v(l, i)
				}
				d *= tau[i]
				for l := i; l < out.C; l++ {
					out.V[r+l*out.R] -= d * v(l, i)
				}
			}
		}
	}
	return out
}

// FactorsOf makes the QR factors of matrix i of src in T: src's matrix
// factored in float64 (HouseholderQR), the factor and tau then rounded
// to T, so that a kernel in T and the reference start from the same
// numbers. The returned trial.Dense and tau are those rounded values.
func FactorsOf[T batchlas.Float](src batchlas.Batch[T], i int, dst batchlas.Batch[T], tau batchlas.Vectors[T]) (trial.Dense, []float64) {
	f := trial.DenseOf(src, i)
	t := HouseholderQR(f)
	for c := 0; c < f.C; c++ {
		for r := 0; r < f.R; r++ {
			x := T(f.V[r+c*f.R])
			dst.Set(i, r, c, x)
			f.V[r+c*f.R] = float64(x)
		}
	}
	for j := range t {
		x := T(t[j])
		tau.Set(i, j, x)
		t[j] = float64(x)
	}
	return f, t
}

// MaxAbsDiff checks |got - want| <= tol elementwise (NaN fails) and names
// the worst element.
func MaxAbsDiff(what string, got, want trial.Dense, tol float64) error {
	scale := trial.Dense{R: got.R, C: got.C, V: make([]float64, len(got.V))}
	for i := range scale.V {
		scale.V[i] = 1
	}
	return trial.WithinBound(what, got, want, scale, tol)
}

// Orthonormal checks ||Q^T Q - I||_max <= tol for the columns of q.
func Orthonormal(what string, q trial.Dense, tol float64) error {
	for a := 0; a < q.C; a++ {
		for b := 0; b < q.C; b++ {
			d := 0.0
			for l := 0; l < q.R; l++ {
				d += q.V[l+a*q.R] * q.V[l+b*q.R]
			}
			if a == b {
				d--
			}
			if !(math.Abs(d) <= tol) {
				return fmt.Errorf("%s: (Q^T Q - I)(%d,%d) = %.3g, bound %.3g", what, a, b, d, tol)
			}
		}
	}
	return nil
}
