package gemm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestInterrupted interrupts every candidate at every chunk boundary (a
// context that is done from its (n+1)th Err call on; the batch loop asks
// before each chunk): the call returns a *batchlas.InterruptedError
// wrapping context.Canceled; the matrices it reports completed are bit for
// bit those of an uninterrupted call (itself checked against gonum), every
// other matrix and all padding is untouched (every gemm kernel computes a
// C_i on one worker, start to end: Touched == Completed, except packed and
// simd on a batch smaller than their workers, which cut each matrix's
// columns over them and may leave the one in progress partly written),
// stopped at the first check nothing is touched, and stopped at the second
// exactly the first chunk is done, neither nothing nor everything.
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			interrupted[float32](t, c)
		} else {
			interrupted[float64](t, c)
		}
	})
}

func interrupted[T batchlas.Float](t *testing.T, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(41)
	cases := []struct {
		s     shape
		alpha T
		split bool // packed and simd may cut a matrix over workers (splitColumns)
	}{
		{shape{batchlas.NoTrans, batchlas.Trans, 8, 8, 8, 1031}, 1.5, false},  // cheap matrices, many per chunk
		{shape{batchlas.Trans, batchlas.NoTrans, 33, 21, 130, 24}, -1, false}, // k over kc=128: one matrix per chunk
		{shape{batchlas.NoTrans, batchlas.NoTrans, 8, 8, 8, 1031}, 0, false},  // alpha 0: C = beta*C, no kernel
		{shape{batchlas.NoTrans, batchlas.Trans, 110, 200, 1500, 1}, 1, true}, // one big matrix: packed and simd split its columns
	}
	for _, tc := range cases {
		s := tc.s
		if !canRun(c, keyOf(s), batchlas.Host()) {
			continue
		}
		what := fmt.Sprintf("%s %c%c m=%d n=%d k=%d batch=%d alpha=%g", c, s.ta, s.tb, s.m, s.n, s.k, s.batch, tc.alpha)
		a, b, c0 := operands[T](r, s, layout{padLD: 1, padStride: 2})
		call := func(ctx context.Context) (batchlas.Batch[T], error) {
			cc := testmat.Clone(c0)
			return cc, Gemm(sel.WithPin(ctx, opName, c.String()), s.ta, s.tb, tc.alpha, a, b, 0.5, cc, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		require.NoError(t, err, what)
		want, bound := oracle(s.ta, s.tb, tc.alpha, a, b, 0.5, c0)
		checkAgainst(t, what, ref, want, bound)
		total := counter.Calls()

		for _, n := range testmat.StopPoints(total, 64) {
			got, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted(opName, s.batch, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, c0.Data), "%s n=%d: wrote C's padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, s.batch), what)
				continue
			}
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			split := tc.split && (c.Is(familyPacked) || c.Is(familySIMD)) && splitParts(counter, &problem[T]{n: s.n, c: c0}, 1<<30, float64(2*s.m*s.n*s.k)) > 1
			if split {
				// A matrix cut over workers may be stopped half done.
				require.LessOrEqual(t, ie.Touched-ie.Completed, 1, "%s n=%d: at most the matrix being split is partly written", what, n)
			} else {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
			}
			switch {
			case n == 0:
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			case n == 1 && !split:
				require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
			}
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, c0, ie.Touched, s.batch), "%s n=%d: an untouched matrix changed", what, n)
		}
	}
}

// TestInterruptedByRealContexts: a context cancelled before the call, and
// one past its deadline, stop it before it touches anything, and the error
// wraps the context's own error.
func TestInterruptedByRealContexts(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	s := shape{batchlas.NoTrans, batchlas.NoTrans, 8, 8, 8, 64}
	a, b, c0 := operands[float64](testmat.Rand(43), s, layout{})
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, alpha := range []float64{1, 0} {
			cc := testmat.Clone(c0)
			err := Gemm(tc.ctx, s.ta, s.tb, alpha, a, b, 0.5, cc, nil)
			require.ErrorIs(t, err, tc.want)
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%T", err)
			require.Equal(t, batchlas.InterruptedError{Op: opName, Count: s.batch, Err: tc.want}, *ie)
			require.Equal(t, c0.Data, cc.Data, "nothing written")
		}
	}
}
