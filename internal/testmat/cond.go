package testmat

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
)

// Matrices of known condition, for the condition estimates and the
// solvers' condition check.

// WithCond returns a column-major n x n matrix U*diag(s)*V^T, U and V
// random orthogonal (gonum's QR of a random matrix), s geometric from 1
// down to 1/cond: its 2-norm condition number is cond.
func WithCond(r *rand.Rand, n int, cond float64) []float64 {
	orth := func() *mat.Dense {
		g := mat.NewDense(n, n, nil)
		for i := range n {
			for j := range n {
				g.Set(i, j, r.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(g)
		var q mat.Dense
		qr.QTo(&q)
		return &q
	}
	u, v := orth(), orth()
	for j := range n {
		s := 1.0
		if n > 1 {
			s = math.Pow(cond, -float64(j)/float64(n-1))
		}
		for i := range n {
			u.Set(i, j, u.At(i, j)*s)
		}
	}
	var a mat.Dense
	a.Mul(u, v.T())
	out := make([]float64, n*n)
	for j := range n {
		for i := range n {
			out[i+j*n] = a.At(i, j)
		}
	}
	return out
}

// RankDeficient returns n x n matrices of rank n-1: X*Y^T with X, Y
// random n x (n-1), a repeated column, and a column that is the sum of
// two others.
func RankDeficient(r *rand.Rand, n, count int) [][]float64 {
	var out [][]float64
	for k := range count {
		m := make([]float64, n*n)
		switch k % 3 {
		case 0:
			x, y := make([]float64, n*(n-1)), make([]float64, n*(n-1))
			for i := range x {
				x[i], y[i] = r.NormFloat64(), r.NormFloat64()
			}
			for j := range n {
				for i := range n {
					var s float64
					for l := range n - 1 {
						s += x[i+l*n] * y[j+l*n]
					}
					m[i+j*n] = s
				}
			}
		default:
			for i := range m {
				m[i] = r.NormFloat64()
			}
			d := r.IntN(n)
			s := (d + 1 + r.IntN(n-1)) % n
			for i := range n {
				m[i+d*n] = m[i+s*n]
				if k%3 == 2 {
					m[i+d*n] += m[i+((s+1)%n)*n]
				}
			}
			if k%3 == 2 && (s+1)%n == d {
				// the sum would include d itself: repeat the column
				for i := range n {
					m[i+d*n] = m[i+s*n]
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// BatchOf puts column-major matrices into a batch of T with leading
// dimension n+3 and NaN in the padding, so a kernel that reads outside a
// matrix spreads NaN into its rcond.
func BatchOf[T batchlas.Float](ms [][]float64, n int) batchlas.Batch[T] {
	ld, stride := n+3, (n+3)*n+5
	data := NaNs[T](stride * len(ms))
	for k, m := range ms {
		for j := range n {
			for i := range n {
				data[k*stride+j*ld+i] = T(m[i+j*n])
			}
		}
	}
	b, err := batchlas.WrapStrided(data, n, n, ld, stride, len(ms))
	if err != nil {
		panic(err)
	}
	return b
}

// SPDWithCond returns a column-major n x n symmetric positive definite
// matrix Q*diag(s)*Q^T, Q random orthogonal, s geometric from 1 down to
// 1/cond: its condition number is cond.
func SPDWithCond(r *rand.Rand, n int, cond float64) []float64 {
	g := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			g.Set(i, j, r.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q, qs mat.Dense
	qr.QTo(&q)
	qs.CloneFrom(&q)
	for j := range n {
		s := 1.0
		if n > 1 {
			s = math.Pow(cond, -float64(j)/float64(n-1))
		}
		for i := range n {
			qs.Set(i, j, qs.At(i, j)*s)
		}
	}
	var a mat.Dense
	a.Mul(&qs, q.T())
	out := make([]float64, n*n)
	for j := range n {
		for i := range n {
			out[i+j*n] = (a.At(i, j) + a.At(j, i)) / 2
		}
	}
	return out
}
