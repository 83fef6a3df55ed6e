package getrs_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestParallelismDoesNotChangeResults: every candidate of both dtypes gives
// the same X, bit for bit, with 1, 2 and the default number of workers
// (GOMAXPROCS is 4 for the test, so the default differs from both caps),
// on batches of many chunks, with exactly BufferSize's workspace for each
// context. The device has a 32 KiB L2, so nested's trsm calls walk the
// batch in many chunks of a few matrices.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	eachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, _ sel.Choice) {
	testmat.DriverCheck[T](t)
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	for _, tc := range []struct {
		trans   batchlas.Transpose
		n, nrhs int
	}{{batchlas.NoTrans, 40, 3}, {batchlas.Trans, 40, 6}, {batchlas.NoTrans, 3, 2}} {
		a, ipiv := factors[T](7, tc.n, 300, tc.n+1, 0)
		b := rhs[T](7, tc.n, tc.nrhs, 300, tc.n+2, 0)
		var ref batchlas.Batch[T]
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, n)
			size, err := getrs.BufferSize(ctx, tc.trans, a, ipiv, b)
			require.NoError(t, err)
			x := testmat.Clone(b)
			require.NoError(t, getrs.Getrs(ctx, tc.trans, a, ipiv, x, testmat.NaNs[T](size)), "cap %d", n)
			if n == 0 {
				ref = x
				continue
			}
			for i := range ref.Data {
				if math.Float64bits(float64(ref.Data[i])) != math.Float64bits(float64(x.Data[i])) {
					t.Fatalf("%v n=%d nrhs=%d cap %d: element %d is %v, %v with the default parallelism", tc.trans, tc.n, tc.nrhs, n, i, x.Data[i], ref.Data[i])
				}
			}
		}
	}
}
