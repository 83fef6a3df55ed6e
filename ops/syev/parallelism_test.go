package syev

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

// TestParallelismDoesNotChangeResults: every candidate of both dtypes gives
// the same eigenvalues and vectors, bit for bit, with 1, 2 and the default
// number of workers (GOMAXPROCS is 4 for the test, so the default differs
// from both caps), on batches of many chunks with a failing matrix, for
// both jobz. Each call gets exactly BufferSize's workspace for its
// context.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, tc := range []struct {
		n, count int
		jobz     Job
	}{{5, 400, WithVectors}, {40, 24, WithVectors}, {40, 24, ValuesOnly}} {
		if !runs(c, tc.jobz, batchlas.Lower, tc.n, tc.count) {
			continue
		}
		p := newProblem[T](r, tc.jobz, batchlas.Lower, tc.n, tc.count, 0, true)
		p.a.Set(tc.count/2, 0, 0, T(math.Inf(1)))
		var refA batchlas.Batch[T]
		var refW batchlas.Vectors[T]
		for _, w := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, w)
			size, err := BufferSize(ctx, tc.jobz, batchlas.Lower, p.a, p.w)
			require.NoError(t, err)
			a, wv := p.clone()
			err = Syev(ctx, tc.jobz, batchlas.Lower, a, wv, testmat.NaNs[T](size))
			require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{tc.count / 2}, Info: []int{tc.n + 1}}, err, "n=%d cap %d", tc.n, w)
			if w == 0 {
				refA, refW = a, wv
				continue
			}
			for _, pair := range [][2][]T{{refA.Data, a.Data}, {refW.Data, wv.Data}} {
				for i := range pair[0] {
					if math.Float64bits(float64(pair[0][i])) != math.Float64bits(float64(pair[1][i])) {
						t.Fatalf("%s n=%d cap %d: element %d is %v, %v with the default parallelism", c, tc.n, w, i, pair[1][i], pair[0][i])
					}
				}
			}
		}
	}
}
