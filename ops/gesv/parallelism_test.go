package gesv_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestParallelismDoesNotChangeResults: every candidate of both dtypes
// writes the same factors, pivots and X, bit for bit, with 1, 2 and the
// default number of workers (GOMAXPROCS is 4 for the test), with exactly
// BufferSize's workspace for each context, on a device with a 32 KiB L2
// so nested's blocked kernels walk the batch in many chunks.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	eachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	for _, tc := range []struct{ n, nrhs int }{{40, 3}, {3, 2}, {70, 9}, {17, 4}} {
		if !runs(c, tc.n, tc.nrhs, 150) {
			continue
		}
		a, ipiv, b := system[T](7, tc.n, tc.nrhs, 150, true)
		for r := 0; r < tc.n; r++ {
			a.Set(11, r, tc.n-1, 0)
		}
		var ref result[T]
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, n)
			size, err := gesv.BufferSize(ctx, a, ipiv, b)
			require.NoError(t, err)
			r := result[T]{lu: testmat.Clone(a), x: testmat.Clone(b), ipiv: ipiv}
			r.ipiv.Data = append([]int32(nil), ipiv.Data...)
			r.err = gesv.Gesv(ctx, r.lu, r.ipiv, r.x, testmat.NaNs[T](size))
			require.Error(t, r.err, "matrix 11 is singular")
			if n == 0 {
				ref = r
				continue
			}
			require.Equal(t, ref.err, r.err, "cap %d", n)
			require.True(t, sameBits(ref.lu.Data, r.lu.Data), "n=%d nrhs=%d cap %d: factors differ", tc.n, tc.nrhs, n)
			require.True(t, sameBits(ref.x.Data, r.x.Data), "n=%d nrhs=%d cap %d: X differs", tc.n, tc.nrhs, n)
			require.Equal(t, ref.ipiv.Data, r.ipiv.Data, "n=%d nrhs=%d cap %d: pivots differ", tc.n, tc.nrhs, n)
		}
	}
}
