package getrs_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestInterrupted interrupts every candidate at chunk boundaries (a
// context done from its (n+1)th Err call on; the batch loop asks before
// each chunk): the call returns a *batchlas.InterruptedError wrapping
// context.Canceled; the matrices it reports completed are bit for bit
// those of an uninterrupted call (itself checked against gonum), those it
// reports untouched and all padding are untouched, and stopped at the
// first check nothing is touched. permatrix and vendor report Touched ==
// Completed, and stopped at the second check the first chunk is solved;
// nested completes matrices only in its last pass, which some stop point
// reaches when that pass has more than one chunk.
func TestInterrupted(t *testing.T) {
	eachCandidate(t, interrupted[float32], interrupted[float64])
}

func interrupted[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	// A device with a small L2 keeps the chunks of nested's trsm calls
	// (blocked walks the batch in cache-sized chunks) small, so its last
	// pass completes some matrices before others.
	dev := *batchlas.Host()
	dev.L2 = 32 << 10
	ctx = batchlas.WithDevice(ctx, &dev)
	for _, tc := range []struct {
		trans        batchlas.Transpose
		n, nrhs, cnt int
		bcast        bool
	}{
		{batchlas.NoTrans, 8, 2, 1000, false},
		{batchlas.Trans, 8, 2, 1000, false},
		{batchlas.NoTrans, 40, 3, 200, true},
		{batchlas.Trans, 40, 5, 200, false},
	} {
		what := fmt.Sprintf("%s %v n=%d nrhs=%d count=%d broadcast=%v", c, tc.trans, tc.n, tc.nrhs, tc.cnt, tc.bcast)
		a, ipiv := factors[T](uint64(tc.n), tc.n, tc.cnt, 0, 0)
		if tc.bcast {
			a, ipiv = batchlas.Broadcast(a, tc.cnt), batchlas.BroadcastVectors(ipiv, tc.cnt)
		}
		b0 := rhs[T](uint64(tc.n), tc.n, tc.nrhs, tc.cnt, tc.n+1, (tc.n+1)*tc.nrhs+2)
		call := func(stop *testmat.StopAfter) (batchlas.Batch[T], error) {
			x := testmat.Clone(b0)
			return x, getrs.Getrs(testmat.WithValues(stop, ctx), tc.trans, a, ipiv, x, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		require.NoError(t, err, what)
		for i := 0; i < tc.cnt; i += 97 {
			forward(t, what, tc.trans, a, ipiv, b0, ref, i)
		}
		total := counter.Calls()
		perMatrix := c.String() != "nested"

		midway := false
		for _, n := range testmat.StopPoints(total, 64) {
			got, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted("getrs", tc.cnt, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, b0.Data), "%s n=%d: wrote B's padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, tc.cnt), what)
				continue
			}
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			require.Nil(t, ie.Failed, what)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if perMatrix {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
				// Nor less than they completed: the next matrix is not
				// solved.
				require.Equal(t, ie.Completed, testmat.SameMatrices(got, ref, ie.Completed, tc.cnt), "%s n=%d: matrix %d was solved but not reported", what, n, ie.Completed)
			}
			midway = midway || ie.Completed > 0
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, b0, ie.Touched, tc.cnt), "%s n=%d: an untouched matrix changed", what, n)
		}
		// nested's last pass for Trans is the interchanges, weighed at
		// n*nrhs per matrix: a batch of less than 32K such elements is one
		// chunk of the batch loop, which completes all or nothing.
		if perMatrix || tc.trans == batchlas.NoTrans || tc.cnt*tc.n*tc.nrhs > 32<<10 {
			require.True(t, midway, "%s: no stop point completed some matrices but not all", what)
		}
	}
}

// TestInterruptedByRealContexts: a context cancelled before the call, and
// one past its deadline, stop every candidate before it touches anything,
// and the error wraps the context's own error.
func TestInterruptedByRealContexts(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	a, ipiv := factors[float64](3, 40, 64, 0, 0)
	b0 := rhs[float64](3, 40, 3, 64, 0, 0)
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range getrs.Op.Candidates(sel.Float64) {
			for _, trans := range transes {
				x := testmat.Clone(b0)
				err := getrs.Getrs(pin(tc.ctx, c), trans, a, ipiv, x, nil)
				require.ErrorIs(t, err, tc.want, c.String())
				var ie *batchlas.InterruptedError
				require.True(t, errors.As(err, &ie), "%s: %T", c, err)
				require.Equal(t, batchlas.InterruptedError{Op: "getrs", Count: 64, Err: tc.want}, *ie, c.String())
				require.Equal(t, b0.Data, x.Data, "%s: nothing written", c)
			}
		}
	}
}
