package orgqr_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/orgqr"
	sel "github.com/batchlas-go/batchlas/select"
)

// Every candidate's Q is orthonormal, ||Q^T Q - I||_F / (n eps) <= 64,
// and reproduces A, ||A - Q R||_F / (||A||_F max(m, n) eps) <= 64, from
// the factors of random, graded (columns scaled from 1e-8 to 1e8) and
// nearly rank-deficient (a column a combination of two others plus 1e-12
// noise) matrices, tall and square, both dtypes.
func TestAccuracyOnHardInputs(t *testing.T) {
	eachCandidate(t, hardInputs[float32], hardInputs[float64])
}

func hardInputs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	eps := testmat.Eps[T]()
	r := testmat.Rand(21)
	for _, sh := range [][2]int{{8, 8}, {33, 17}, {64, 64}, {100, 40}, {17, 17}} {
		m, n := sh[0], sh[1]
		for _, kind := range []string{"random", "graded", "nearly rank-deficient"} {
			const count = 3
			as := make([][]float64, count)
			a := batchlas.NewBatch[T](m, n, count)
			tau := batchlas.NewVectors[T](n, count)
			for i := range as {
				col := make([]float64, m*n) // column-major
				for j := range col {
					col[j] = r.NormFloat64()
				}
				for cc := range n {
					for row := range m {
						switch {
						case kind == "graded":
							col[row+cc*m] *= math.Pow(10, -8+16*float64(cc)/float64(max(1, n-1)))
						case kind == "nearly rank-deficient" && cc == n-1:
							col[row+cc*m] = col[row] + 2*col[row+m] + 1e-12*col[row+cc*m]
						}
					}
				}
				as[i] = col
				rm := make([]float64, m*n)
				for row := range m {
					for cc := range n {
						rm[row*n+cc] = col[row+cc*m]
					}
				}
				tv := make([]float64, n)
				work := make([]float64, 64*n)
				gonum.Implementation{}.Dgeqrf(m, n, rm, n, tv, work, len(work))
				for row := range m {
					for cc := range n {
						a.Set(i, row, cc, T(rm[row*n+cc]))
					}
				}
				for j := range n {
					tau.Set(i, j, T(tv[j]))
				}
			}
			rr := testmat.Clone(a) // R is the factor's upper triangle
			what := fmt.Sprintf("%s m=%d n=%d %s", c, m, n, kind)
			if err := orgqr.Orgqr(ctx, a, tau, nil); err != nil {
				if strings.Contains(err.Error(), "can_run refuses") {
					continue
				}
				t.Fatalf("%s: %v", what, err)
			}
			for i := range count {
				orth := 0.0
				for p := range n {
					for q := range n {
						d := 0.0
						for l := range m {
							d += float64(a.At(i, l, p)) * float64(a.At(i, l, q))
						}
						if p == q {
							d--
						}
						orth += d * d
					}
				}
				res, norm := 0.0, 0.0
				for row := range m {
					for cc := range n {
						s := 0.0
						for l := range min(cc+1, n) {
							s += float64(a.At(i, row, l)) * float64(rr.At(i, l, cc))
						}
						d := s - as[i][row+cc*m]
						res += d * d
						norm += as[i][row+cc*m] * as[i][row+cc*m]
					}
				}
				o := math.Sqrt(orth) / (float64(n) * eps)
				q := math.Sqrt(res) / (math.Sqrt(norm) * float64(max(m, n)) * eps)
				require.LessOrEqual(t, o, 64.0, "%s matrix %d: ||Q^T Q - I|| / (n eps)", what, i)
				require.LessOrEqual(t, q, 64.0, "%s matrix %d: ||A - QR|| / (||A|| max(m,n) eps)", what, i)
			}
		}
	}
}
