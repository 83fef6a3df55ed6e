package posv

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
// context.Canceled; the systems it reports completed (A_i and B_i) are bit
// for bit those of an uninterrupted call (itself checked against gonum),
// those it reports untouched and all padding are untouched, stopped at the
// first check nothing is touched, and the failed system among the
// completed ones is listed in Failed. fused reports Touched == Completed,
// and stopped at the second check exactly the first chunk is done; nested
// completes nothing while factoring and a prefix while solving, which some
// stop point reaches.
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interruptedProperty[float32], interruptedProperty[float64])
}

func interruptedProperty[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(21)
	// A device with a small L2 keeps trsm's blocked chunks (beneath potrs's
	// nested) small, so a solve completes the batch chunk by chunk.
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	// 5000 systems of order 4 make several chunks even for the batch loops
	// of potrf and trsm beneath nested, which weigh such a matrix at a few
	// dozen flops.
	for _, tc := range []struct{ n, nrhs, count int }{{4, 2, 5000}, {40, 3, 60}} {
		if !runs(c, uplo, tc.n, tc.nrhs, tc.count) {
			continue
		}
		p := newProblem[T](r, uplo, tc.n, tc.nrhs, tc.count, true)
		const failed = 2 // a failing system in the first chunk
		p.a.Set(failed, 1, 1, -1)
		what := fmt.Sprintf("%s %v n=%d nrhs=%d count=%d", c, uplo, tc.n, tc.nrhs, tc.count)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], batchlas.Batch[T], error) {
			a, b := p.clone()
			return a, b, Posv(testmat.WithValues(stop, ctx), uplo, a, b, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		refA, refB, err := call(counter)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, what)
		require.Equal(t, []int{failed}, ne.Index, what)
		var good []int
		for i := 0; i < tc.count; i += 13 {
			if i != failed {
				good = append(good, i)
			}
		}
		checkSolved(t, what, p, refA, refB, good)
		total := counter.Calls()

		midway := false
		for _, n := range testmat.StopPoints(total, 100) {
			gotA, gotB, err := call(testmat.NewStopAfter(n))
			if err != nil && errors.As(err, &ne) {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(gotA, refA, 0, tc.count), what)
				require.Equal(t, -1, testmat.SameMatrices(gotB, refB, 0, tc.count), what)
				continue
			}
			ie, bad := testmat.CheckInterrupted(opName, tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.NotNil(t, ie, "%s n=%d: neither interrupted nor reporting the failed system", what, n)
			require.True(t, testmat.Untouched(gotA, gotA.Data, p.a.Data), "%s n=%d: wrote A's padding", what, n)
			require.True(t, testmat.Untouched(gotB, gotB.Data, p.b.Data), "%s n=%d: wrote B's padding", what, n)
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if c.Is(fusedFamily) {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
			}
			if ie.Completed > failed {
				require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{failed}, Info: []int{2}}, ie.Failed, "%s n=%d", what, n)
			} else {
				require.Nil(t, ie.Failed, "%s n=%d: the failed system is not among the completed ones", what, n)
			}
			midway = midway || ie.Completed > 0
			require.Equal(t, -1, testmat.SameMatrices(gotA, refA, 0, ie.Completed), "%s n=%d: a completed factor differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(gotB, refB, 0, ie.Completed), "%s n=%d: a completed X differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(gotA, p.a, ie.Touched, tc.count), "%s n=%d: an untouched A changed", what, n)
			require.Equal(t, -1, testmat.SameMatrices(gotB, p.b, ie.Touched, tc.count), "%s n=%d: an untouched B changed", what, n)
			require.Equal(t, -1, testmat.SameMatrices(gotB, p.b, failed, failed+1), "%s n=%d: the failed system's B was written", what, n)
		}
		require.True(t, midway, "%s: no stop point completed some systems but not all", what)
	}
}

// TestNestedReportsItsPhases: nested stopped while potrf factors has
// completed no system and left B untouched; stopped while potrs solves,
// it has touched every system (each A_i is factored) and completed a
// prefix.
func TestNestedReportsItsPhases(t *testing.T) {
	p := newProblem[float64](testmat.Rand(22), batchlas.Lower, 6, 2, 1000, false)
	// One worker: each phase checks the context exactly once per chunk.
	ctx := batchlas.WithParallelism(sel.WithPin(sel.WithPin(pin(context.Background(), nestedFamily.With()), "potrf", "unblocked"), "potrs", "fused"), 1)
	counter := testmat.NewStopAfter(testmat.Forever)
	a, b := p.clone()
	require.NoError(t, Posv(testmat.WithValues(counter, ctx), batchlas.Lower, a, b, nil))
	total := counter.Calls()
	require.Greater(t, total, int64(4), "several chunks per phase")
	factoring, solving := false, false
	for n := int64(1); n < total; n++ {
		a, b := p.clone()
		err := Posv(testmat.WithValues(testmat.NewStopAfter(n), ctx), batchlas.Lower, a, b, nil)
		ie, bad := testmat.CheckInterrupted(opName, 1000, err)
		require.NoError(t, bad)
		require.NotNil(t, ie, "stopped after %d of %d checks", n, total)
		switch {
		case ie.Touched < 1000:
			factoring = true
			require.Zero(t, ie.Completed, "n=%d: while factoring", n)
			require.True(t, sameBits(p.b.Data, b.Data), "n=%d: B untouched while factoring", n)
		default:
			// Stopped at the first check of the solve, nothing is
			// completed yet; every later stop completes a prefix.
			solving = solving || ie.Completed > 0
		}
	}
	require.True(t, factoring && solving)
}

// TestInterruptedByRealContexts: a context cancelled before the call, and
// one past its deadline, stop it before it touches anything, and the error
// wraps the context's own error.
func TestInterruptedByRealContexts(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	p := newProblem[float64](testmat.Rand(23), batchlas.Upper, 30, 3, 64, false)
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range Op.Candidates(sel.Float64) {
			a, b := p.clone()
			err := Posv(pin(tc.ctx, c), batchlas.Upper, a, b, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: opName, Count: 64, Err: tc.want}, *ie, c.String())
			require.Equal(t, -1, testmat.SameMatrices(a, p.a, 0, 64), "%s: nothing written", c)
			require.Equal(t, -1, testmat.SameMatrices(b, p.b, 0, 64), "%s: nothing written", c)
		}
	}
}
