package potrs

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
// both uplos (nested also under each trsm kernel) gives the same X, bit
// for bit, with 1, 2 and the default number of workers (GOMAXPROCS is 4
// for the test, so the default differs from both caps), on batches of many
// chunks. Each call gets exactly BufferSize's workspace for its context.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, tc := range []struct{ n, nrhs, count int }{{5, 3, 600}, {40, 6, 40}} {
		s := newSystem[T](r, uplo, tc.n, tc.nrhs, tc.count, true)
		var ref batchlas.Batch[T]
		var refSize int
		for _, p := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, p)
			size, err := BufferSize(ctx, uplo, s.a, s.b)
			require.NoError(t, err)
			x := testmat.Clone(s.b)
			require.NoError(t, Potrs(ctx, uplo, s.a, x, testmat.NaNs[T](size)), "n=%d cap %d", tc.n, p)
			if p == 0 {
				ref, refSize = x, size
				checkSolved(t, c.String(), s, x)
				continue
			}
			if c.Is(vendorFamily) {
				require.Equal(t, refSize/4*p, size, "cap %d: per-worker scratch for %d workers, not 4", p, p)
			}
			for i := range ref.Data {
				if math.Float64bits(float64(ref.Data[i])) != math.Float64bits(float64(x.Data[i])) {
					t.Fatalf("%s n=%d cap %d: element %d is %v, %v with the default parallelism", c, tc.n, p, i, x.Data[i], ref.Data[i])
				}
			}
		}
	}
}
