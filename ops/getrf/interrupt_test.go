package getrf

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
// context that is done from its (n+1)th Err call on; the batch loop asks
// before each chunk): the call returns a *batchlas.InterruptedError
// wrapping context.Canceled; the matrices (and pivot vectors) it reports
// completed are bit for bit those of an uninterrupted call (itself checked),
// those it reports untouched and all padding are untouched, and stopped at
// the first check nothing is touched. Per-matrix kernels (all but batched
// above its nb, which n = 96 takes) report Touched == Completed, and
// stopped at the second check exactly the first chunk is done. The
// batch-wide path completes matrices only in its last step's panels, which
// some stop point reaches (at n = 96 that step factors a panel of 16 or 32
// columns, a few matrices per chunk).
func TestInterrupted(t *testing.T) {
	forEachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(21)
	for _, tc := range []struct{ n, count int }{{8, 1000}, {20, 200}, {96, 12}} {
		if !runnable(c, tc.n, tc.count) {
			continue
		}
		a0 := randomBatch[T](r, tc.n, tc.count, true)
		batchWide := c.Is(batchedFamily) && tc.n > c.Field("nb")
		what := fmt.Sprintf("%s n=%d count=%d", c, tc.n, tc.count)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], batchlas.Vectors[int32], error) {
			a := testmat.Clone(a0)
			ipiv := pivotsFor(tc.n, tc.count, true)
			// ctx's values (the pin) over stop's Err.
			return a, ipiv, Getrf(testmat.WithValues(stop, ctx), a, ipiv, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, refPiv, err := call(counter)
		require.NoError(t, err, what)
		checkLU(t, a0, ref, refPiv, what)
		total := counter.Calls()
		blank := pivotsFor(tc.n, tc.count, true)

		lastStep := false
		for _, n := range testmat.StopPoints(total, 64) {
			got, piv, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted("getrf", tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, a0.Data), "%s n=%d: wrote padding", what, n)
			require.Equal(t, -1, pivotsUntouched(piv, tc.n), "%s n=%d: wrote ipiv padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, tc.count), what)
				require.Equal(t, refPiv.Data, piv.Data, what)
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
			for i := 0; i < tc.count; i++ {
				switch {
				case i < ie.Completed:
					require.Equal(t, refPiv.Vector(i), piv.Vector(i), "%s n=%d: pivots of completed matrix %d", what, n, i)
				case i >= ie.Touched:
					require.Equal(t, blank.Vector(i), piv.Vector(i), "%s n=%d: pivots of untouched matrix %d", what, n, i)
				}
			}
		}
		if batchWide && tc.n == 96 {
			// At n = 20 the last panel is too little work to split into
			// chunks; at 96 it is a few matrices per chunk.
			require.True(t, lastStep, "%s: no stop point in the last step's panels", what)
		}
	}
}

// TestInterruptedReportsFailures: a singular matrix among the completed
// ones is listed in the report's Failed, with its info; one past them is
// not.
func TestInterruptedReportsFailures(t *testing.T) {
	for _, c := range Op.Candidates(sel.Float64) {
		const n, count = 8, 1000
		if !runnable(c, n, count) {
			continue
		}
		a := randomBatch[float64](testmat.Rand(22), n, count, false)
		for row := 0; row < n; row++ {
			a.Set(0, row, 2, 0)       // a zero column: fails at column 3
			a.Set(count-1, row, 0, 0) // in the last chunk, never reached
		}
		stop := testmat.NewStopAfter(1)
		err := Getrf(testmat.WithValues(stop, pin(c)), a, pivotsFor(n, count, false), nil)
		ie, bad := testmat.CheckInterrupted("getrf", count, err)
		require.NoError(t, bad, c.String())
		require.NotNil(t, ie, c.String())
		require.Positive(t, ie.Completed, c.String())
		require.NotNil(t, ie.Failed, c.String())
		require.Equal(t, batchlas.NumericalError{Op: "getrf", Index: []int{0}, Info: []int{3}}, *ie.Failed, c.String())
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
			n := 70
			if !runnable(c, n, 4) {
				n = 8
			}
			a := randomBatch[float64](testmat.Rand(23), n, 4, false)
			orig := testmat.Clone(a)
			ipiv := pivotsFor(n, 4, false)
			err := Getrf(sel.WithPin(tc.ctx, "getrf", c.String()), a, ipiv, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: "getrf", Count: 4, Err: tc.want}, *ie, c.String())
			require.Equal(t, orig.Data, a.Data, "%s: nothing written", c)
			require.Equal(t, -1, pivotsUntouched(ipiv, 0), "%s: no pivot written", c)
		}
	}
}
