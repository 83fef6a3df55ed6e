package gesv_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// solveChecked runs gesv on copies of the matrices ms (n x n) with one
// right-hand side of ones under ctx and returns the info of every matrix
// (0 when not reported), whether B_i was written, and the call's error
// when it is not a NumericalError.
func solveChecked[T batchlas.Float](t *testing.T, ctx context.Context, ms [][]float64, n int) (info []int, written []bool) {
	t.Helper()
	a := testmat.BatchOf[T](ms, n)
	b := batchlas.NewBatch[T](n, 1, len(ms))
	for i := range b.Data {
		b.Data[i] = 1
	}
	err := gesv.Gesv(ctx, a, batchlas.NewVectors[int32](n, len(ms)), b, nil)
	info = make([]int, len(ms))
	var ne *batchlas.NumericalError
	switch {
	case err == nil:
	case errors.As(err, &ne):
		for j, i := range ne.Index {
			info[i] = ne.Info[j]
		}
	default:
		t.Fatalf("gesv n=%d: %v", n, err)
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

// With batchlas.WithConditionCheck, every matrix of an exactly
// rank-deficient 16x16 batch is reported, singular (info 1..n, B_i left
// alone) or ill-conditioned (info n+1, B_i solved all the same), and no
// matrix of condition number up to 1e10 is; without it, most of the
// rank-deficient ones pass as solved. Every gesv candidate, both dtypes
// (float32 with condition numbers up to 1e4).
func TestConditionCheck(t *testing.T) {
	n := 16
	r := testmat.Rand(21)
	sing := testmat.RankDeficient(r, n, 600)
	var good, good32 [][]float64
	for _, c := range []float64{1, 1e3, 1e6, 1e8, 1e10} {
		for range 20 {
			good = append(good, testmat.WithCond(r, n, c))
		}
	}
	for _, c := range []float64{1, 1e2, 1e4} {
		for range 20 {
			good32 = append(good32, testmat.WithCond(r, n, c))
		}
	}
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range gesv.Op.Candidates(dt) {
			ctx := batchlas.WithConditionCheck(sel.WithPin(context.Background(), "gesv", c.String()), 0)
			check := func(info []int, written []bool) {
				for i, v := range info {
					switch {
					case v == 0:
						t.Errorf("%s %s: rank-deficient matrix %d not reported", dt, c, i)
					case v == n+1 && !written[i]:
						t.Errorf("%s %s: ill-conditioned matrix %d (info n+1) was not solved", dt, c, i)
					case v <= n && written[i]:
						t.Errorf("%s %s: singular matrix %d (info %d) had its B written", dt, c, i, v)
					}
				}
			}
			var gi []int
			if dt == sel.Float32 {
				check(solveChecked[float32](t, ctx, sing, n))
				gi, _ = solveChecked[float32](t, ctx, good32, n)
			} else {
				check(solveChecked[float64](t, ctx, sing, n))
				gi, _ = solveChecked[float64](t, ctx, good, n)
			}
			for i, v := range gi {
				if v != 0 {
					t.Errorf("%s %s: matrix %d of a well-conditioned batch reported with info %d", dt, c, i, v)
				}
			}
		}
	}
	// Without the check, an exactly singular matrix usually factors with
	// a pivot near eps and passes as solved: the reason for the option.
	info, _ := solveChecked[float64](t, context.Background(), sing, n)
	passed := 0
	for _, v := range info {
		if v == 0 {
			passed++
		}
	}
	if passed == 0 {
		t.Errorf("without the check no rank-deficient matrix passed; the test no longer shows what the check adds")
	}
}

// A threshold of the caller's: 1e-3 reports matrices of condition 1e4 and
// passes those of condition 10. A negative or NaN threshold is an
// *ArgError on ctx, and nothing is written.
func TestConditionThreshold(t *testing.T) {
	n := 8
	r := testmat.Rand(4)
	ms := [][]float64{testmat.WithCond(r, n, 10), testmat.WithCond(r, n, 1e4)}
	info, written := solveChecked[float64](t, batchlas.WithConditionCheck(context.Background(), 1e-3), ms, n)
	if info[0] != 0 || info[1] != n+1 || !written[1] {
		t.Errorf("threshold 1e-3: info %v, written %v; want [0 %d], both written", info, written, n+1)
	}
	for _, bad := range []float64{-1, math.NaN()} {
		a := testmat.BatchOf[float64](ms, n)
		orig := append([]float64(nil), a.Data...)
		b := batchlas.NewBatch[float64](n, 1, 2)
		err := gesv.Gesv(batchlas.WithConditionCheck(context.Background(), bad), a, batchlas.NewVectors[int32](n, 2), b, nil)
		var ae *batchlas.ArgError
		if !errors.As(err, &ae) || ae.Op != "gesv" || ae.Arg != "ctx" {
			t.Errorf("threshold %g: %v, want an *ArgError from gesv on ctx", bad, err)
		}
		for i, v := range a.Data {
			if !(v == orig[i] || (math.IsNaN(v) && math.IsNaN(orig[i]))) {
				t.Fatalf("threshold %g: a was written", bad)
			}
		}
	}
}

// BenchmarkConditionCheck is gesv with one right-hand side with and
// without batchlas.WithConditionCheck: what the check costs.
func BenchmarkConditionCheck(b *testing.B) {
	for _, s := range []struct{ n, count int }{{4, 16384}, {16, 4096}, {64, 256}} {
		r := testmat.Rand(1)
		var ms [][]float64
		for i := range s.count {
			if i < 8 {
				ms = append(ms, testmat.WithCond(r, s.n, 100))
			} else {
				ms = append(ms, ms[i%8])
			}
		}
		a0 := testmat.BatchOf[float64](ms, s.n)
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/batch=%d/check=%v", s.n, s.count, on), func(b *testing.B) {
				ctx := context.Background()
				if on {
					ctx = batchlas.WithConditionCheck(ctx, 0)
				}
				a, x := testmat.Clone(a0), batchlas.NewBatch[float64](s.n, 1, s.count)
				ipiv := batchlas.NewVectors[int32](s.n, s.count)
				for b.Loop() {
					b.StopTimer()
					copy(a.Data, a0.Data)
					b.StartTimer()
					if err := gesv.Gesv(ctx, a, ipiv, x, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
