package getrf

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

// TestParallelismDoesNotChangeResults: every candidate of both dtypes
// (batched also on its batch-wide path, n = 80) gives the same factors and
// pivots, bit for bit, with 1, 2 and the default number of workers
// (GOMAXPROCS is 4 for the test, so the default differs from both caps),
// on batches of many chunks. Each call gets exactly BufferSize's workspace
// for its context.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, tc := range []struct{ n, count int }{{13, 600}, {80, 40}} {
		if !runnable(c, tc.n, tc.count) {
			continue
		}
		a0 := randomBatch[T](r, tc.n, tc.count, true)
		var ref batchlas.Batch[T]
		var refPiv batchlas.Vectors[int32]
		var refSize int
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, n)
			ipiv := pivotsFor(tc.n, tc.count, true)
			size, err := BufferSize(ctx, a0, ipiv)
			require.NoError(t, err)
			a := testmat.Clone(a0)
			require.NoError(t, Getrf(ctx, a, ipiv, testmat.NaNs[T](size)), "n=%d cap %d", tc.n, n)
			if n == 0 {
				ref, refPiv, refSize = a, ipiv, size
				continue
			}
			require.Equal(t, refSize/4*n, size, "cap %d: per-worker scratch for %d workers, not 4", n, n)
			for i := range ref.Data {
				if math.Float64bits(float64(ref.Data[i])) != math.Float64bits(float64(a.Data[i])) {
					t.Fatalf("%s n=%d cap %d: element %d is %v, %v with the default parallelism", c, tc.n, n, i, a.Data[i], ref.Data[i])
				}
			}
			require.Equal(t, refPiv.Data, ipiv.Data, "%s n=%d cap %d: pivots", c, tc.n, n)
		}
	}
}
