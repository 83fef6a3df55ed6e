package syev

import (
	"context"
	"errors"
	"fmt"
	"math"
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
// context.Canceled; the matrices it reports completed (A_i and w_i) are
// bit for bit those of an uninterrupted call (itself checked against
// gonum), every later one and all padding are untouched (every kernel
// reports Touched == Completed), stopped at the first check nothing is
// touched, and the failed matrix among the completed ones is listed in
// Failed. Some stop point completes some matrices but not all.
func TestInterrupted(t *testing.T) {
	// Chunks of four matrices on blocked's batch-wide path, so that it
	// too completes the batch piece by piece.
	defer func(e int) { blockedChunkElems = e }(blockedChunkElems)
	forEachCandidate(t, interruptedProperty[float32], interruptedProperty[float64])
}

func interruptedProperty[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(21)
	for _, tc := range []struct {
		n, count int
		jobz     Job
		uplo     batchlas.Uplo
	}{{4, 3000, WithVectors, batchlas.Lower}, {40, 40, ValuesOnly, batchlas.Upper}, {40, 40, WithVectors, batchlas.Lower}} {
		if !runs(c, tc.jobz, tc.uplo, tc.n, tc.count) {
			continue
		}
		switch {
		case c.Is(blockedFamily):
			blockedChunkElems = 4 * blockedStride[T](tc.n, c.Field("nb"), false)
		case c.Is(dcFamily):
			blockedChunkElems = 4 * blockedStride[T](tc.n, dcNB, tc.jobz == WithVectors)
		}
		p := newProblem[T](r, tc.jobz, tc.uplo, tc.n, tc.count, 0, true)
		const failed = 2 // a failing matrix in the first chunk
		p.a.Set(failed, 1, 1, T(math.NaN()))
		what := fmt.Sprintf("%s n=%d count=%d jobz=%v", c, tc.n, tc.count, tc.jobz)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], batchlas.Vectors[T], error) {
			a, w := p.clone()
			return a, w, Syev(testmat.WithValues(stop, ctx), tc.jobz, tc.uplo, a, w, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		refA, refW, err := call(counter)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, what)
		require.Equal(t, []int{failed}, ne.Index, what)
		var good []int
		for i := 0; i < tc.count; i += 13 {
			if i != failed {
				good = append(good, i)
			}
		}
		checkSolved(t, what, p, refA, refW, good)
		total := counter.Calls()

		midway := false
		for _, n := range testmat.StopPoints(total, 60) {
			gotA, gotW, err := call(testmat.NewStopAfter(n))
			if err != nil && errors.As(err, &ne) {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(gotA, refA, 0, tc.count), what)
				require.True(t, sameBits(gotW.Data, refW.Data), what)
				continue
			}
			ie, bad := testmat.CheckInterrupted(opName, tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.NotNil(t, ie, "%s n=%d: neither interrupted nor reporting the failed matrix", what, n)
			require.True(t, testmat.Untouched(gotA, gotA.Data, p.a.Data), "%s n=%d: wrote A's padding", what, n)
			require.True(t, vectorGapsUntouched(gotW, p.w), "%s n=%d: wrote w's padding", what, n)
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: every kernel touches only what it completes", what, n)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if ie.Completed > failed {
				require.Equal(t, &batchlas.NumericalError{Op: opName, Index: []int{failed}, Info: []int{tc.n + 1}}, ie.Failed, "%s n=%d", what, n)
			} else {
				require.Nil(t, ie.Failed, "%s n=%d: the failed matrix is not among the completed ones", what, n)
			}
			midway = midway || ie.Completed > 0
			require.Equal(t, -1, testmat.SameMatrices(gotA, refA, 0, ie.Completed), "%s n=%d: a completed A differs from the uninterrupted result", what, n)
			require.True(t, sameVectors(gotW, refW, 0, ie.Completed), "%s n=%d: a completed w differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(gotA, p.a, ie.Touched, tc.count), "%s n=%d: an untouched A changed", what, n)
			require.True(t, sameVectors(gotW, p.w, ie.Touched, tc.count), "%s n=%d: an untouched w changed", what, n)
		}
		require.True(t, midway, "%s: no stop point completed some matrices but not all", what)
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
			jobz := WithVectors
			if !runs(c, jobz, batchlas.Upper, 30, 64) {
				jobz = ValuesOnly
			}
			p := newProblem[float64](testmat.Rand(23), jobz, batchlas.Upper, 30, 64, 0, false)
			a, w := p.clone()
			err := Syev(pin(tc.ctx, c), jobz, batchlas.Upper, a, w, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: opName, Count: 64, Err: tc.want}, *ie, c.String())
			require.Equal(t, -1, testmat.SameMatrices(a, p.a, 0, 64), "%s: nothing written", c)
			require.True(t, sameBits(w.Data, p.w.Data), "%s: nothing written", c)
		}
	}
}
