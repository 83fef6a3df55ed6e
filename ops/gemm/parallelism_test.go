package gemm

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestParallelismDoesNotChangeResults: every candidate of both dtypes gives
// the same C, bit for bit, with 1, 2 and the default number of workers, on
// batches that make a dozen or more chunks. GOMAXPROCS is 4 for the test,
// so the default differs from both caps. Each call gets exactly the
// workspace BufferSize gives for its own context, so the scratch it sizes
// follows the cap.
func TestParallelismDoesNotChangeResults(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			sameForEveryParallelism[float32](t, c)
		} else {
			sameForEveryParallelism[float64](t, c)
		}
	})
}

func sameForEveryParallelism[T batchlas.Float](t *testing.T, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, s := range []shape{
		{batchlas.NoTrans, batchlas.Trans, 24, 20, 16, 300},     // 17 chunks of 18
		{batchlas.Trans, batchlas.NoTrans, 5, 7, 3, 2000},       // 13 chunks of the 156-matrix grain
		{batchlas.NoTrans, batchlas.NoTrans, 150, 300, 140, 1},  // one matrix on its own
		{batchlas.NoTrans, batchlas.NoTrans, 200, 130, 1300, 1}, // packed and simd cut one matrix's columns over the workers
		{batchlas.Trans, batchlas.Trans, 130, 257, 1000, 2},     // and each of two
		// Deeper than simd's k slices, several matrices per group: the
		// chunks leave a group of one in different places per cap.
		{batchlas.NoTrans, batchlas.NoTrans, 4, 4, 600, 301},
		{batchlas.Trans, batchlas.NoTrans, 4, 4, 600, 301},
	} {
		a, b, c0 := operands[T](r, s, layout{padLD: 1})
		var ref batchlas.Batch[T]
		var refSize int
		for _, n := range []int{0, 1, 2} { // the default first, as the reference
			ctx := batchlas.WithParallelism(pinned(c), n)
			size, err := BufferSize(ctx, s.ta, s.tb, a, b, c0)
			require.NoError(t, err)
			got := testmat.Clone(c0)
			require.NoError(t, Gemm(ctx, s.ta, s.tb, 1.5, a, b, 0.5, got, testmat.NaNs[T](size)), "cap %d", n)
			if n == 0 {
				ref, refSize = got, size
				continue
			}
			require.Equal(t, refSize/4*n, size, "cap %d: per-worker scratch for %d workers, not 4", n, n)
			requireSameBits(t, ref.Data, got.Data, "%v cap %d", s, n)
		}
	}
}

// requireSameBits fails unless got and want hold the same bits.
func requireSameBits[T batchlas.Float](t *testing.T, want, got []T, format string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.Float64bits(float64(want[i])) != math.Float64bits(float64(got[i])) {
			require.Failf(t, "results differ", "element %d: %v, want %v; "+format, append([]any{i, got[i], want[i]}, args...)...)
		}
	}
}
