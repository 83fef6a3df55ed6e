package potrs

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

// TestInterrupted interrupts every candidate at chunk boundaries (a
// context done from its (n+1)th Err call on; the batch loops ask before
// each chunk): the call returns a *batchlas.InterruptedError wrapping
// context.Canceled; the matrices it reports completed are bit for bit
// those of an uninterrupted call (itself checked against gonum), those it
// reports untouched and all padding are untouched, and stopped at the
// first check nothing is touched. fused and vendor report Touched ==
// Completed, and stopped at the second check exactly the first chunk is
// done. nested (under each trsm kernel) completes nothing in its first
// pass and a prefix in its second, which some stop point reaches.
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interruptedProperty[float32], interruptedProperty[float64])
}

func interruptedProperty[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(21)
	// A device with a small L2 keeps trsm's blocked chunks (beneath nested)
	// small, so its second pass completes the batch chunk by chunk.
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	// 5000 systems of order 4 make several chunks even for trsm's batch
	// loop beneath nested, which weighs a matrix at only n^2*nrhs flops.
	for _, tc := range []struct{ n, nrhs, count int }{{4, 2, 5000}, {40, 3, 60}} {
		s := newSystem[T](r, uplo, tc.n, tc.nrhs, tc.count, true)
		what := fmt.Sprintf("%s %v n=%d nrhs=%d count=%d", c, uplo, tc.n, tc.nrhs, tc.count)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], error) {
			x := testmat.Clone(s.b)
			return x, Potrs(testmat.WithValues(stop, ctx), uplo, s.a, x, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		require.NoError(t, err, what)
		checkSolved(t, what, s, ref)
		total := counter.Calls()

		midway := false
		for _, n := range testmat.StopPoints(total, 100) {
			got, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted(opName, tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, s.b.Data), "%s n=%d: wrote B's padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, tc.count), what)
				continue
			}
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			require.Nil(t, ie.Failed, "%s: potrs reports no failure", what)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if !c.Is(nestedFamily) {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
			}
			midway = midway || ie.Completed > 0
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, s.b, ie.Touched, tc.count), "%s n=%d: an untouched matrix changed", what, n)
		}
		require.True(t, midway, "%s: no stop point completed some matrices but not all", what)
	}
}

// TestNestedReportsItsPasses: nested stopped in its first trsm pass has
// completed nothing; stopped in the second, it has touched every matrix
// (the first pass wrote them all) and completed a prefix.
func TestNestedReportsItsPasses(t *testing.T) {
	s := newSystem[float64](testmat.Rand(22), batchlas.Lower, 6, 2, 1000, false)
	// One worker: each pass checks the context exactly once per chunk, so
	// the first half of the checks is the first pass.
	ctx := batchlas.WithParallelism(sel.WithPin(pin(context.Background(), nestedFamily.With()), "trsm", "direct"), 1)
	counter := testmat.NewStopAfter(testmat.Forever)
	require.NoError(t, Potrs(testmat.WithValues(counter, ctx), batchlas.Lower, s.a, testmat.Clone(s.b), nil))
	total := counter.Calls()
	require.Greater(t, total, int64(4), "several chunks per pass")
	first, second := false, false
	for n := int64(1); n < total; n++ {
		err := Potrs(testmat.WithValues(testmat.NewStopAfter(n), ctx), batchlas.Lower, s.a, testmat.Clone(s.b), nil)
		ie, bad := testmat.CheckInterrupted(opName, 1000, err)
		require.NoError(t, bad)
		require.NotNil(t, ie, "stopped after %d of %d checks", n, total)
		if n < total/2 {
			first = true
			require.Zero(t, ie.Completed, "n=%d: in the first pass", n)
			require.Positive(t, ie.Touched, "n=%d: the first pass wrote its first chunk", n)
		} else if n > total/2 {
			second = true
			require.Equal(t, 1000, ie.Touched, "n=%d: in the second pass", n)
		}
	}
	require.True(t, first && second)
}

// TestInterruptedByRealContexts: a context cancelled before the call, and
// one past its deadline, stop it before it touches anything, and the error
// wraps the context's own error.
func TestInterruptedByRealContexts(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	s := newSystem[float64](testmat.Rand(23), batchlas.Upper, 40, 3, 64, false)
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range Op.Candidates(sel.Float64) {
			x := testmat.Clone(s.b)
			err := Potrs(pin(tc.ctx, c), batchlas.Upper, s.a, x, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: opName, Count: 64, Err: tc.want}, *ie, c.String())
			require.Equal(t, -1, testmat.SameMatrices(x, s.b, 0, 64), "%s: nothing written", c)
		}
	}
}
