package trsm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestInterrupted interrupts every candidate at chunk boundaries (a
// context that is done from its (n+1)th Err call on; the batch loop asks
// before each chunk), on a batch of several of blocked's chunks: the call
// returns a *batchlas.InterruptedError wrapping context.Canceled; the
// matrices it reports completed are bit for bit those of an uninterrupted
// call (itself checked by its residual), the matrices it reports untouched
// and all padding are untouched, stopped at the first check nothing is
// touched. Kernels that solve each B_i on one worker (direct, vector, vendor, and
// blocked on a triangle of order at most nb) report Touched == Completed,
// and stopped at the second check exactly the first chunk is solved.
// blocked on a larger triangle reports a chunk prefix completed, which
// some stop point makes neither nothing nor everything.
func TestInterrupted(t *testing.T) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) {
				if dt == sel.Float32 {
					interrupted[float32](t, c)
				} else {
					interrupted[float64](t, c)
				}
			})
		}
	}
}

// interruptCase is one call of TestInterrupted.
type interruptCase struct {
	side      batchlas.Side
	uplo      batchlas.Uplo
	ta        batchlas.Transpose
	diag      batchlas.Diag
	t, r      int // order of A, other dimension of B
	alpha     float64
	broadcast bool
}

func interrupted[T batchlas.Float](t *testing.T, c sel.Choice) {
	testmat.DriverCheck[T](t)
	cases := []interruptCase{
		{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 40, 3, 1.5, false},
		{batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.Unit, 40, 2, -1, true},
		{batchlas.Left, batchlas.Upper, batchlas.NoTrans, batchlas.NonUnit, 6, 5, 1, false},  // blocked: a single leaf
		{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 40, 3, 0, false}, // alpha 0: B = 0
	}
	for _, tc := range cases {
		p := &problem{side: tc.side, uplo: tc.uplo, ta: tc.ta, diag: tc.diag, t: tc.t, r: tc.r, m: tc.t, n: tc.r}
		if tc.side == batchlas.Right {
			p.m, p.n = tc.r, tc.t
		}
		// A device with a small L2 keeps blocked's chunks, and so a batch
		// that holds three of them, small; 1000 matrices make several
		// chunks of the batch loop too.
		dev := *batchlas.Host()
		dev.L2 = 32 << 10
		withDev := func(ctx context.Context) context.Context { return batchlas.WithDevice(ctx, &dev) }
		count := max(3*chunkCount(withDev(context.Background()), p, tc.broadcast, int(unsafe.Sizeof(T(0))))+5, 1000)
		what := fmt.Sprintf("%s %v%v%v%v t=%d r=%d alpha=%g broadcast=%v count=%d", c, tc.side, tc.uplo, tc.ta, tc.diag, tc.t, tc.r, tc.alpha, tc.broadcast, count)
		r := testmat.Rand(uint64(tc.t))
		aCount := count
		if tc.broadcast {
			aCount = 1
		}
		a := testmat.Batch[T](r, tc.t, tc.t, aCount, tc.t+1, tc.t*(tc.t+1)+3)
		testmat.Triangular(r, a, tc.uplo)
		if tc.broadcast {
			a = batchlas.Broadcast(a, count)
		}
		b0 := testmat.Batch[T](r, p.m, p.n, count, p.m+2, (p.m+2)*p.n+1)
		alpha := T(tc.alpha)
		call := func(ctx context.Context) (batchlas.Batch[T], error) {
			x := testmat.Clone(b0)
			return x, Trsm(sel.WithPin(withDev(ctx), opName, c.String()), tc.side, tc.uplo, tc.ta, tc.diag, alpha, a, x, nil)
		}
		counter := testmat.NewStopAfter(testmat.Forever)
		ref, err := call(counter)
		require.NoError(t, err, what)
		for i := 0; i < count; i += 97 {
			checkSolved(t, what, p, alpha, a, b0, ref, i)
		}
		total := counter.Calls()
		perMatrix := !c.Is(blocked) || tc.t <= c.Field("nb") || tc.alpha == 0

		midway := false
		for _, n := range testmat.StopPoints(total, 48) {
			got, err := call(testmat.NewStopAfter(n))
			ie, bad := testmat.CheckInterrupted(opName, count, err)
			require.NoError(t, bad, "%s stopped after %d checks", what, n)
			require.True(t, testmat.Untouched(got, got.Data, b0.Data), "%s n=%d: wrote B's padding", what, n)
			if ie == nil {
				require.Positive(t, n, "%s: not interrupted by a context done from the start", what)
				require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, count), what)
				continue
			}
			require.Less(t, n, total, "%s: interrupted after %d checks, as many as a whole call makes", what, n)
			if n == 0 {
				require.Zero(t, ie.Touched, "%s: stopped before it started", what)
			}
			if perMatrix {
				require.Equal(t, ie.Completed, ie.Touched, "%s n=%d: per-matrix kernels touch only what they complete", what, n)
				if n == 1 {
					require.Positive(t, ie.Completed, "%s: the first chunk ran", what)
				}
			}
			midway = midway || ie.Completed > 0
			require.Equal(t, -1, testmat.SameMatrices(got, ref, 0, ie.Completed), "%s n=%d: a completed matrix differs from the uninterrupted result", what, n)
			require.Equal(t, -1, testmat.SameMatrices(got, b0, ie.Touched, count), "%s n=%d: an untouched matrix changed", what, n)
		}
		require.True(t, midway, "%s: no stop point completed some matrices but not all", what)
	}
}

// checkSolved checks that matrix i of x solves the call of p on a and b
// (op(A)*X = alpha*B, or X*op(A) = alpha*B), in float64, to a loose
// multiple of T's rounding.
func checkSolved[T batchlas.Float](t *testing.T, what string, p *problem, alpha T, a, b, x batchlas.Batch[T], i int) {
	t.Helper()
	n := p.t
	// e is op(A) as a dense n x n float64 matrix, e[r][c].
	e := make([][]float64, n)
	for row := range e {
		e[row] = make([]float64, n)
		for col := range e[row] {
			ar, ac := row, col
			if p.ta == batchlas.Trans {
				ar, ac = col, row
			}
			in := (p.uplo == batchlas.Lower && ar >= ac) || (p.uplo == batchlas.Upper && ar <= ac)
			switch {
			case ar == ac && p.diag == batchlas.Unit:
				e[row][col] = 1
			case in:
				e[row][col] = float64(a.At(i, ar, ac))
			}
		}
	}
	tol := 64 * float64(n) * testmat.Eps[T]()
	for row := 0; row < p.m; row++ {
		for col := 0; col < p.n; col++ {
			s, mag := 0.0, 0.0
			for k := 0; k < n; k++ {
				var v float64
				if p.side == batchlas.Left {
					v = e[row][k] * float64(x.At(i, k, col))
				} else {
					v = float64(x.At(i, row, k)) * e[k][col]
				}
				s += v
				mag += math.Abs(v)
			}
			want := float64(alpha) * float64(b.At(i, row, col))
			if d := math.Abs(s - want); !(d <= tol*(mag+math.Abs(want)+1)) {
				t.Fatalf("%s: matrix %d (%d,%d): op(A)*X gives %g, alpha*B %g", what, i, row, col, s, want)
			}
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
	r := testmat.Rand(3)
	a := testmat.Batch[float64](r, 40, 40, 64, 0, 0)
	testmat.Triangular(r, a, batchlas.Lower)
	b0 := testmat.Batch[float64](r, 40, 3, 64, 0, 0)
	for _, tc := range []struct {
		ctx  context.Context
		want error
	}{{cancelled, context.Canceled}, {late, context.DeadlineExceeded}} {
		for _, c := range Op.Candidates(sel.Float64) {
			x := testmat.Clone(b0)
			err := Trsm(sel.WithPin(tc.ctx, opName, c.String()), batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, x, nil)
			require.ErrorIs(t, err, tc.want, c.String())
			var ie *batchlas.InterruptedError
			require.True(t, errors.As(err, &ie), "%s: %T", c, err)
			require.Equal(t, batchlas.InterruptedError{Op: opName, Count: 64, Err: tc.want}, *ie, c.String())
			require.Equal(t, b0.Data, x.Data, "%s: nothing written", c)
		}
	}
}
