package gesv_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestInterrupted interrupts every candidate at chunk boundaries on
// batches with singular matrices: the call returns a
// *batchlas.InterruptedError wrapping context.Canceled; the systems it
// reports completed (A, ipiv and B) are bit for bit those of an
// uninterrupted call, its Failed lists exactly the singular ones among
// them, the systems it reports untouched and all padding are untouched,
// and stopped at the first check nothing is touched. fused reports
// Touched == Completed and, stopped at the second check, the first chunk
// done; nested completes systems only while solving, which some stop
// point reaches.
func TestInterrupted(t *testing.T) {
	eachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	// A device with a small L2 keeps the chunks of nested's blocked
	// kernels small, as in getrs's and trsm's tests.
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	for _, tc := range []struct{ n, nrhs, count int }{{6, 2, 1000}, {40, 3, 120}} {
		if !runs(c, tc.n, tc.nrhs, tc.count) {
			continue
		}
		what := fmt.Sprintf("%s n=%d nrhs=%d count=%d", c, tc.n, tc.nrhs, tc.count)
		a0, ipiv0, b0 := system[T](uint64(tc.n), tc.n, tc.nrhs, tc.count, true)
		singular := []int{3, tc.count / 2, tc.count - 1}
		for _, i := range singular {
			for r := 0; r < tc.n; r++ {
				a0.Set(i, r, 1, 0)
			}
		}
		call := func(stop *testmat.StopAfter) (result[T], error) {
			r := result[T]{lu: testmat.Clone(a0), x: testmat.Clone(b0), ipiv: ipiv0}
			r.ipiv.Data = append([]int32(nil), ipiv0.Data...)
			return r, gesv.Gesv(testmat.WithValues(stop, ctx), r.lu, r.ipiv, r.x, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		var ne *batchlas.NumericalError
		require.ErrorAs(t, err, &ne, what)
		require.Equal(t, singular, ne.Index, what)
		for i := 0; i < tc.count; i += 97 {
			if !contains(singular, i) {
				solved(t, what, a0, b0, ref, i)
			}
		}
		total := counter.Calls()
		// fused and lanes complete systems (lanes a group at a time)
		// before they touch the next.
		perMatrix := c.String() == "fused" || c.String() == "lanes"

		midway := false
		for _, n := range testmat.StopPoints(total, 64) {
			got, err := call(testmat.NewStopAfter(n))
			if errors.As(err, &ne) {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, singular, ne.Index, what)
				require.Equal(t, -1, testmat.SameMatrices(got.lu, ref.lu, 0, tc.count), what)
				require.Equal(t, -1, testmat.SameMatrices(got.x, ref.x, 0, tc.count), what)
				continue
			}
			ie, bad := testmat.CheckInterrupted("gesv", tc.count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.NotNil(t, ie, "%s n=%d", what, n)
			require.True(t, testmat.Untouched(got.lu, got.lu.Data, a0.Data), "%s n=%d: wrote A's padding", what, n)
			require.True(t, testmat.Untouched(got.x, got.x.Data, b0.Data), "%s n=%d: wrote B's padding", what, n)
			require.Less(t, n, total, what)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if perMatrix {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: fused touches only what it completes", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
			}
			midway = midway || ie.Completed > 0
			var failed []int
			for _, i := range singular {
				if i < ie.Completed {
					failed = append(failed, i)
				}
			}
			if failed == nil {
				require.Nil(t, ie.Failed, "%s n=%d", what, n)
			} else {
				require.NotNil(t, ie.Failed, "%s n=%d", what, n)
				require.Equal(t, failed, ie.Failed.Index, "%s n=%d", what, n)
				require.Equal(t, "gesv", ie.Failed.Op)
			}
			// The report is not needlessly short: the first system left
			// incomplete (its factor or its X not yet the reference's)
			// lies in the run of non-singular systems (the stretch
			// between two singular ones) where Completed lies. A kernel
			// may report less than it completed only within the call it
			// was interrupted in.
			first := tc.count
			for i := 0; i < tc.count; i++ {
				if testmat.SameMatrices(got.lu, ref.lu, i, i+1) >= 0 || testmat.SameMatrices(got.x, ref.x, i, i+1) >= 0 {
					first = i
					break
				}
			}
			runStart := 0
			for _, i := range singular {
				if i < first {
					runStart = i + 1
				}
			}
			require.GreaterOrEqual(t, ie.Completed, min(runStart, first), "%s n=%d: system %d is the first incomplete one, yet Completed is %d", what, n, first, ie.Completed)
			require.Equal(t, -1, testmat.SameMatrices(got.lu, ref.lu, 0, ie.Completed), "%s n=%d: a completed factor differs", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got.x, ref.x, 0, ie.Completed), "%s n=%d: a completed X differs", what, n)
			for i := 0; i < ie.Completed; i++ {
				p, q := got.ipiv.Vector(i), ref.ipiv.Vector(i)
				require.Equal(t, q[:tc.n], p[:tc.n], "%s n=%d: completed pivots %d differ", what, n, i)
			}
			require.Equal(t, -1, testmat.SameMatrices(got.lu, a0, ie.Touched, tc.count), "%s n=%d: an untouched A changed", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got.x, b0, ie.Touched, tc.count), "%s n=%d: an untouched B changed", what, n)
		}
		require.True(t, midway, "%s: no stop point completed some systems but not all", what)
	}
}

// TestInterruptedByRealContexts: a context cancelled before the call, and
// one past its deadline, stop every candidate before it touches anything.
func TestInterruptedByRealContexts(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range gesv.Op.Candidates(sel.Float64) {
			a, ipiv, b := system[float64](3, 30, 3, 64, false)
			a0, b0 := testmat.Clone(a), testmat.Clone(b)
			err := gesv.Gesv(pin(tc.ctx, c), a, ipiv, b, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: "gesv", Count: 64, Err: tc.want}, *ie, c.String())
			require.Equal(t, a0.Data, a.Data, "%s: nothing written", c)
			require.Equal(t, b0.Data, b.Data, "%s: nothing written", c)
		}
	}
}
