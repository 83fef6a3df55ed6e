package potrf

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
// both uplos (blocked also on its nested, batch-wide path) gives the same
// factors, bit for bit, with 1, 2 and the default number of workers
// (GOMAXPROCS is 4 for the test, so the default differs from both caps),
// on batches of many chunks. Each call gets exactly BufferSize's workspace
// for its context. (tiled's tasks on one matrix are checked on many tiles
// in TestTiledSameForEveryParallelism.)
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(11)
	// 13 is tiny's; 80 is above blockedNB, so on the small-cache device
	// blocked takes its batch-wide path.
	for _, tc := range []struct{ n, count int }{{13, 600}, {80, 40}} {
		if !runnable(c, uplo, tc.n, tc.count) {
			continue
		}
		a0 := batchFor[T](r, tc.n, tc.count, true)
		var ref batchlas.Batch[T]
		var refSize int
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, n)
			size, err := BufferSize(ctx, uplo, a0)
			require.NoError(t, err)
			a := testmat.Clone(a0)
			require.NoError(t, Potrf(ctx, uplo, a, testmat.NaNs[T](size)), "n=%d cap %d", tc.n, n)
			if n == 0 {
				ref, refSize = a, size
				continue
			}
			if c.Is(tiledFamily) {
				// One matrix at a time on every worker: one copy.
				require.Equal(t, refSize, size, "cap %d: tiled's scratch does not depend on the workers", n)
			} else {
				require.Equal(t, refSize/4*n, size, "cap %d: per-worker scratch for %d workers, not 4", n, n)
			}
			for i := range ref.Data {
				if math.Float64bits(float64(ref.Data[i])) != math.Float64bits(float64(a.Data[i])) {
					t.Fatalf("%s n=%d cap %d: element %d is %v, %v with the default parallelism", c, tc.n, n, i, a.Data[i], ref.Data[i])
				}
			}
		}
	}
}
