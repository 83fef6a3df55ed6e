package gemm

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// oracle computes alpha*op(A_i)*op(B_i) + beta*C_i with gonum in float64 for
// every matrix of the batch (C taken before the call), and a per-element
// bound for the rounding error of a correct float-T kernel:
// c*(k+2)*eps*(|alpha|*|op(A)|*|op(B)| + |beta|*|C|).
func oracle[T batchlas.Float](ta, tb batchlas.Transpose, alpha T, a, b batchlas.Batch[T], beta T, c0 batchlas.Batch[T]) (want, bound [][]float64) {
	m, n := c0.Rows, c0.Cols
	k := a.Cols
	if ta == batchlas.Trans {
		k = a.Rows
	}
	eps := testmat.Eps[T]()
	tr := func(t batchlas.Transpose) blas.Transpose {
		if t == batchlas.Trans {
			return blas.Trans
		}
		return blas.NoTrans
	}
	abs := func(x []float64) []float64 {
		y := make([]float64, len(x))
		for i, v := range x {
			y[i] = math.Abs(v)
		}
		return y
	}
	for i := 0; i < c0.Count; i++ {
		ad, bd, cd := testmat.Dense(a, i), testmat.Dense(b, i), testmat.Dense(c0, i)
		if beta == 0 {
			clear(cd) // C is not read
		}
		// Column-major X (r x c) is row-major X^T; compute C^T = op(B)^T op(A)^T.
		rm := func(d []float64, rows, cols int) blas64.General {
			return blas64.General{Rows: cols, Cols: rows, Stride: max(1, rows), Data: d}
		}
		w := append([]float64(nil), cd...)
		bnd := abs(cd)
		if k > 0 && m > 0 && n > 0 {
			blas64.Gemm(tr(tb), tr(ta), float64(alpha), rm(bd, b.Rows, b.Cols), rm(ad, a.Rows, a.Cols), float64(beta), rm(w, m, n))
			blas64.Gemm(tr(tb), tr(ta), math.Abs(float64(alpha)), rm(abs(bd), b.Rows, b.Cols), rm(abs(ad), a.Rows, a.Cols), math.Abs(float64(beta)), rm(bnd, m, n))
		} else {
			for j := range w {
				w[j] *= float64(beta)
				bnd[j] *= math.Abs(float64(beta))
			}
		}
		for j := range bnd {
			bnd[j] *= 2 * float64(k+2) * eps
		}
		want = append(want, w)
		bound = append(bound, bnd)
	}
	return want, bound
}

// checkAgainst fails t unless every matrix of got is within bound of want.
func checkAgainst[T batchlas.Float](t testing.TB, what string, got batchlas.Batch[T], want, bound [][]float64) {
	t.Helper()
	bad := 0
	for i := 0; i < got.Count; i++ {
		g := testmat.Dense(got, i)
		for j := range g {
			d := math.Abs(g[j] - want[i][j])
			if !(d <= bound[i][j]) && !(math.IsNaN(want[i][j]) && math.IsNaN(g[j])) && !(g[j] == want[i][j]) {
				if bad < 3 {
					t.Errorf("%s: matrix %d element (%d,%d): got %g want %g (bound %g)", what, i, j%got.Rows, j/got.Rows, g[j], want[i][j], bound[i][j])
				}
				bad++
			}
		}
	}
	if bad > 3 {
		t.Errorf("%s: %d wrong elements in all", what, bad)
	}
}
