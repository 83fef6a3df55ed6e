package trsm_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestParallelismDoesNotChangeResults: every candidate of both dtypes gives
// the same X, bit for bit, with 1, 2 and the default number of workers
// (GOMAXPROCS is 4 for the test, so the default differs from both caps),
// on batches of many chunks. The device has a 32 KiB L2, so blocked walks
// the batch in many chunks of a few matrices, each through nested gemm
// calls. Each call gets exactly BufferSize's workspace for its context.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	eachCandidate(t, sameForEveryParallelism[float32], sameForEveryParallelism[float64])
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	for _, tc := range []struct {
		v    variant
		m, n int
	}{
		{variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}, 40, 3},
		{variant{batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.Unit}, 2, 40},
		{variant{batchlas.Left, batchlas.Upper, batchlas.Trans, batchlas.NonUnit}, 3, 2}, // the small-triangle path
	} {
		a, b := randomInput[T](7, tc.v, tc.m, tc.n, 300, true)
		var ref batchlas.Batch[T]
		var refSize int
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(ctx, n)
			size, err := trsm.BufferSize(ctx, tc.v.side, tc.v.uplo, tc.v.ta, tc.v.diag, a, b)
			require.NoError(t, err)
			x := testmat.Clone(b)
			require.NoError(t, trsm.Trsm(ctx, tc.v.side, tc.v.uplo, tc.v.ta, tc.v.diag, 1.5, a, x, testmat.NaNs[T](size)), "cap %d", n)
			if n == 0 {
				ref, refSize = x, size
				continue
			}
			require.Equal(t, refSize/4*n, size, "cap %d: per-worker scratch for %d workers, not 4", n, n)
			for i := range ref.Data {
				if math.Float64bits(float64(ref.Data[i])) != math.Float64bits(float64(x.Data[i])) {
					t.Fatalf("%v m=%d n=%d cap %d: element %d is %v, %v with the default parallelism", tc.v, tc.m, tc.n, n, i, x.Data[i], ref.Data[i])
				}
			}
		}
	}
}
