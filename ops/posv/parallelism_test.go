package posv

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestParallelismDoesNotChangeResults: every candidate of both dtypes and
// both uplos (nested also under each of nestedPins) gives the same factors
// and X, bit for bit, with 1, 2 and the default number of workers
// (GOMAXPROCS is 4 for the test, so the default differs from both caps),
// on batches of many chunks with a failing system. Each call gets exactly
// BufferSize's workspace for its context.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, tc := range []struct{ n, nrhs, count int }{{5, 3, 600}, {40, 6, 40}, {20, 2, 100}} {
		if !runs(c, uplo, tc.n, tc.nrhs, tc.count) {
			continue
		}
		p := newProblem[T](r, uplo, tc.n, tc.nrhs, tc.count, true)
		p.a.Set(tc.count/2, 0, 0, -1)
		var refA, refB batchlas.Batch[T]
		for _, w := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, w)
			size, err := BufferSize(ctx, uplo, p.a, p.b)
			require.NoError(t, err)
			a, b := p.clone()
			err = Posv(ctx, uplo, a, b, testmat.NaNs[T](size))
			require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{tc.count / 2}, Info: []int{1}}, err, "n=%d cap %d", tc.n, w)
			if w == 0 {
				refA, refB = a, b
				continue
			}
			for _, pair := range [][2]batchlas.Batch[T]{{refA, a}, {refB, b}} {
				for i := range pair[0].Data {
					if math.Float64bits(float64(pair[0].Data[i])) != math.Float64bits(float64(pair[1].Data[i])) {
						t.Fatalf("%s n=%d cap %d: element %d is %v, %v with the default parallelism", c, tc.n, w, i, pair[1].Data[i], pair[0].Data[i])
					}
				}
			}
		}
	}
}
