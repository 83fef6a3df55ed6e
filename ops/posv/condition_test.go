package posv_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/posv"
	sel "github.com/batchlas-go/batchlas/select"
)

// posvInfo runs posv (Lower) on copies of ms with one right-hand side of
// ones under ctx: the info of every matrix (0 when not reported) and
// whether B_i was written.
func posvInfo(t *testing.T, ctx context.Context, ms [][]float64, n int) (info []int, written []bool) {
	t.Helper()
	a := testmat.BatchOf[float64](ms, n)
	b := batchlas.NewBatch[float64](n, 1, len(ms))
	for i := range b.Data {
		b.Data[i] = 1
	}
	err := posv.Posv(ctx, batchlas.Lower, a, b, nil)
	info = make([]int, len(ms))
	var ne *batchlas.NumericalError
	switch {
	case err == nil:
	case errors.As(err, &ne):
		for j, i := range ne.Index {
			info[i] = ne.Info[j]
		}
	default:
		t.Fatalf("posv n=%d: %v", n, err)
	}
	written = make([]bool, len(ms))
	for i := range written {
		for _, v := range b.Data[i*b.Stride : i*b.Stride+n] {
			if v != 1 {
				written[i] = true
			}
		}
	}
	return info, written
}

// With batchlas.WithConditionCheck, every positive semidefinite matrix of
// rank n-1 (X*X^T, X random 16 x 15) is reported, not positive definite
// (info <= n, B_i untouched) or ill-conditioned (info n+1, B_i solved), and
// no SPD matrix of condition number up to 1e10 is; every posv candidate.
func TestConditionCheck(t *testing.T) {
	n := 16
	r := testmat.Rand(8)
	var sing, good [][]float64
	for range 300 {
		x := make([]float64, n*(n-1))
		for i := range x {
			x[i] = r.NormFloat64()
		}
		m := make([]float64, n*n)
		for j := range n {
			for i := range n {
				for l := range n - 1 {
					m[i+j*n] += x[i+l*n] * x[j+l*n]
				}
			}
		}
		sing = append(sing, m)
	}
	for _, c := range []float64{1, 1e5, 1e10} {
		for range 20 {
			good = append(good, testmat.SPDWithCond(r, n, c))
		}
	}
	for _, c := range posv.Op.Candidates(sel.Float64) {
		ctx := batchlas.WithConditionCheck(sel.WithPin(context.Background(), "posv", c.String()), 0)
		info, written := posvInfo(t, ctx, sing, n)
		for i, v := range info {
			switch {
			case v == 0:
				t.Errorf("%s: semidefinite matrix %d not reported", c, i)
			case v == n+1 && !written[i]:
				t.Errorf("%s: ill-conditioned matrix %d was not solved", c, i)
			case v <= n && written[i]:
				t.Errorf("%s: failed matrix %d (info %d) had its B written", c, i, v)
			}
		}
		info, _ = posvInfo(t, ctx, good, n)
		for i, v := range info {
			if v != 0 {
				t.Errorf("%s: well-conditioned matrix %d reported with info %d", c, i, v)
			}
		}
	}
}
