package potrf

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestInterrupted interrupts every candidate at chunk boundaries (a
// context that is done from its (n+1)th Err call on; the batch loop asks
// before each chunk): the call returns a *batchlas.InterruptedError
// wrapping context.Canceled; the matrices it reports completed are bit for
// bit those of an uninterrupted call (itself checked against gonum), the
// matrices it reports untouched and all padding are untouched, stopped at
// the first check nothing is touched. Per-matrix kernels (all but
// blocked's batch-wide path, which the /nested runs take at n = 104) report
// Touched == Completed, and stopped at the second check exactly the first
// chunk is done. The batch-wide path completes matrices only in its last
// step's diagonal factorisation, which some stop point reaches (at n = 104
// that step factors 40 columns, a matrix per chunk).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(11)
	dev := opkit.DeviceFrom(ctx)
	for _, tc := range []struct{ n, count int }{{8, 1000}, {20, 200}, {104, 12}} {
		if !runnable(c, uplo, tc.n, tc.count) {
			continue
		}
		a0 := batchFor[T](r, tc.n, tc.count, true)
		batchWide := c.Is(blockedFamily) && blockedPath(tc.n, a0, dev) == blockedByBatch
		what := fmt.Sprintf("%s %v n=%d count=%d L2=%d", c, uplo, tc.n, tc.count, dev.L2)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], error) {
			a := testmat.Clone(a0)
			// ctx's values (pin, device) over stop's Err.
			return a, Potrf(testmat.WithValues(stop, ctx), uplo, a, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		require.NoError(t, err, what)
		checkFactor(t, uplo, a0, ref)
		total := counter.Calls()

		lastStep := false
		for _, n := range testmat.StopPoints(total, 64) {
			got, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted("potrf", tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, a0.Data), "%s n=%d: wrote padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, tc.count), what)
				continue
			}
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			require.Nil(t, ie.Failed, "%s n=%d: no matrix failed", what, n)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if batchWide {
				lastStep = lastStep || ie.Completed > 0
			} else {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
			}
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, a0, ie.Touched, tc.count), "%s n=%d: an untouched matrix changed", what, n)
		}
		if batchWide {
			require.True(t, lastStep, "%s: no stop point in the last step's diagonal factorisation", what)
		}
	}
}

// TestInterruptedReportsFailures: a matrix that is not positive definite
// among the completed ones is listed in the report's Failed, with its
// info; one past them is not.
func TestInterruptedReportsFailures(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		const n, count = 8, 1000
		if !runnable(c, batchlas.Lower, n, count) {
			continue
		}
		a := batchFor[float64](testmat.Rand(12), n, count, false)
		a.Set(0, 2, 2, -1)       // fails at the leading minor of order 3
		a.Set(count-1, 0, 0, -1) // in the last chunk, never reached
		stop := testmat.NewStopAfter(1)
		err := Potrf(testmat.WithValues(stop, pin(c)), batchlas.Lower, a, nil)
		ie, bad := testmat.CheckInterrupted("potrf", count, err)
		require.NoError(t, bad, c.String())
		require.NotNil(t, ie, c.String())
		require.Positive(t, ie.Completed, c.String())
		require.NotNil(t, ie.Failed, c.String())
		require.Equal(t, batchlas.NumericalError{Op: "potrf", Index: []int{0}, Info: []int{3}}, *ie.Failed, c.String())
		require.Contains(t, err.Error(), "1 completed matrix(es) failed")
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
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range Op.Candidates(sel.Float64) {
			for _, dev := range []*sel.Device{batchlas.Host(), smallCache()} {
				n := 70
				if !runnable(c, batchlas.Lower, n, 4) {
					n = 8
				}
				a := batchFor[float64](testmat.Rand(9), n, 4, false)
				orig := testmat.Clone(a)
				ctx := batchlas.WithDevice(sel.WithPin(tc.ctx, "potrf", c.String()), dev)
				err := Potrf(ctx, batchlas.Lower, a, nil)
				require.ErrorIs(t, err, tc.want, c.String())
				var ie *batchlas.InterruptedError
				require.True(t, errors.As(err, &ie), "%s: %T", c, err)
				require.Equal(t, batchlas.InterruptedError{Op: "potrf", Count: 4, Err: tc.want}, *ie, c.String())
				require.Equal(t, orig.Data, a.Data, "%s: nothing written", c)
			}
		}
	}
}
