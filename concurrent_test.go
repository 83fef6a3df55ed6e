package batchlas_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestConcurrentOpsShareWorkers: many goroutines call gemm, trsm and potrf
// at once, every candidate of each, with no cap and with caps of 1 and 2,
// all sharing the process's pool of workers. Each result must equal, bit
// for bit, the same call made alone beforehand: concurrency and caps
// change who computes a matrix, never what it holds. (make race races
// every op's candidates this way in internal/allops instead.) GOMAXPROCS is 4 for the test (more than the caps, and
// more workers than the development machine's two cores).
func TestConcurrentOpsShareWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := testmat.Rand(17)
	ga := testmat.Batch[float64](r, 16, 16, 200, 0, 0)
	gb := testmat.Batch[float64](r, 16, 16, 200, 0, 0)
	gc := testmat.Batch[float64](r, 16, 16, 200, 0, 0)
	ta := testmat.Batch[float64](r, 24, 24, 100, 0, 0)
	testmat.Triangular(r, ta, batchlas.Lower)
	tb := testmat.Batch[float64](r, 24, 3, 100, 0, 0)
	pa := testmat.Batch[float64](r, 24, 24, 100, 0, 0)
	testmat.SPD(r, pa)

	// job is one call on its own copy of the written operand.
	type job struct {
		name string
		run  func(ctx context.Context) (batchlas.Batch[float64], error)
	}
	var jobs []job
	for _, c := range gemm.Op.Candidates(sel.Float64) {
		jobs = append(jobs, job{"gemm " + c.String(), func(ctx context.Context) (batchlas.Batch[float64], error) {
			x := testmat.Clone(gc)
			return x, gemm.Gemm(sel.WithPin(ctx, "gemm", c.String()), batchlas.NoTrans, batchlas.Trans, 1, ga, gb, 0.5, x, nil)
		}})
	}
	for _, c := range trsm.Op.Candidates(sel.Float64) {
		jobs = append(jobs, job{"trsm " + c.String(), func(ctx context.Context) (batchlas.Batch[float64], error) {
			x := testmat.Clone(tb)
			return x, trsm.Trsm(sel.WithPin(ctx, "trsm", c.String()), batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 2, ta, x, nil)
		}})
	}
	for _, c := range potrf.Op.Candidates(sel.Float64) {
		if !potrf.Op.CanRun(c, sel.MakeKey(sel.Str("L"), sel.Int(pa.Rows), sel.Int(pa.Count)), batchlas.Host()) {
			continue // tiny: n = 24 is above its limit
		}
		jobs = append(jobs, job{"potrf " + c.String(), func(ctx context.Context) (batchlas.Batch[float64], error) {
			x := testmat.Clone(pa)
			return x, potrf.Potrf(sel.WithPin(ctx, "potrf", c.String()), batchlas.Lower, x, nil)
		}})
	}
	want := make([]batchlas.Batch[float64], len(jobs))
	for i, j := range jobs {
		x, err := j.run(context.Background())
		require.NoError(t, err, j.name)
		want[i] = x
	}

	var wg sync.WaitGroup
	for i, j := range jobs {
		for _, n := range []int{0, 1, 2} {
			wg.Go(func() {
				what := fmt.Sprintf("%s cap %d", j.name, n)
				got, err := j.run(batchlas.WithParallelism(context.Background(), n))
				if err != nil {
					t.Errorf("%s: %v", what, err)
					return
				}
				for e := range got.Data {
					if math.Float64bits(got.Data[e]) != math.Float64bits(want[i].Data[e]) {
						t.Errorf("%s: element %d is %v, %v when run alone", what, e, got.Data[e], want[i].Data[e])
						return
					}
				}
			})
		}
	}
	wg.Wait()
}
