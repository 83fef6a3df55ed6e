package ormqr_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/ormqr"
	sel "github.com/batchlas-go/batchlas/select"
)

// Every candidate applies Q or Q^T, from either side, as gonum's Dormqr
// does on the same (T-rounded) factor, within 64 ||C|| max(m, n) eps, for
// the factors of random, graded (columns scaled from 1e-8 to 1e8) and
// nearly rank-deficient matrices, both dtypes.
func TestAccuracyOnHardInputs(t *testing.T) {
	eachCandidate(t, hardInputs[float32], hardInputs[float64])
}

func hardInputs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	eps := testmat.Eps[T]()
	r := testmat.Rand(31)
	for _, sh := range [][2]int{{8, 8}, {33, 17}, {64, 40}} {
		nq, k := sh[0], sh[1]
		for _, kind := range []string{"random", "graded", "nearly rank-deficient"} {
			col := make([]float64, nq*k)
			for j := range col {
				col[j] = r.NormFloat64()
			}
			for cc := range k {
				for row := range nq {
					switch {
					case kind == "graded":
						col[row+cc*nq] *= math.Pow(10, -8+16*float64(cc)/float64(max(1, k-1)))
					case kind == "nearly rank-deficient" && cc == k-1:
						col[row+cc*nq] = col[row] + 2*col[row+nq] + 1e-12*col[row+cc*nq]
					}
				}
			}
			rm := make([]float64, nq*k)
			for row := range nq {
				for cc := range k {
					rm[row*k+cc] = col[row+cc*nq]
				}
			}
			tv := make([]float64, k)
			work := make([]float64, 64*k)
			gonum.Implementation{}.Dgeqrf(nq, k, rm, k, tv, work, len(work))
			a := batchlas.NewBatch[T](nq, k, 1)
			tau := batchlas.NewVectors[T](k, 1)
			f := make([]float64, nq*k) // the rounded factor, column-major
			for row := range nq {
				for cc := range k {
					a.Set(0, row, cc, T(rm[row*k+cc]))
					f[row+cc*nq] = float64(T(rm[row*k+cc]))
				}
			}
			ft := make([]float64, k)
			for j := range k {
				tau.Set(0, j, T(tv[j]))
				ft[j] = float64(T(tv[j]))
			}
			for _, side := range []batchlas.Side{batchlas.Left, batchlas.Right} {
				for _, trans := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
					m, n := nq, 5
					if side == batchlas.Right {
						m, n = 5, nq
					}
					cb := batchlas.NewBatch[T](m, n, 1)
					cf := make([]float64, m*n)
					for j := range cf {
						v := T(r.NormFloat64())
						cb.Data[j] = v
						cf[j] = float64(v)
					}
					what := fmt.Sprintf("%s nq=%d k=%d %s side=%v trans=%v", c, nq, k, kind, side, trans)
					require.NoError(t, ormqr.Ormqr(ctx, side, trans, a, tau, cb, nil), what)
					want := gonumApply(side, trans, m, n, k, nq, f, ft, cf)
					diff, norm := 0.0, 0.0
					for j := range want {
						d := float64(cb.Data[j]) - want[j]
						diff += d * d
						norm += cf[j] * cf[j]
					}
					got := math.Sqrt(diff) / (math.Sqrt(norm) * float64(max(m, n)) * eps)
					require.LessOrEqual(t, got, 64.0, "%s: ||Q C - gonum's|| / (||C|| max(m,n) eps)", what)
				}
			}
		}
	}
}
