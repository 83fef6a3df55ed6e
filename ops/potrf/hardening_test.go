package potrf

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNilContext: a nil context is context.Background() for Potrf and
// BufferSize (issue #9): no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		a := batchFor[float64](testmat.Rand(2), 20, 3, false)
		want := testmat.Clone(a)
		require.NoError(t, Potrf(context.Background(), uplo, want, nil))
		n, err := BufferSize(nilCtx, uplo, a)
		require.NoError(t, err)
		require.NoError(t, Potrf(nilCtx, uplo, a, make([]float64, n)))
		require.Equal(t, want.Data, a.Data)
	}
	require.NoError(t, Potrf(nilCtx, batchlas.Lower, batchlas.NewBatch[float64](4, 4, 0), nil))
}

// badPins runs f once with a bad environment pin (BATCHLAS_POTRF_ROUTE,
// re-read by sel.Reload) and once with a bad scoped pin.
func badPins(t *testing.T, f func(t *testing.T, ctx context.Context)) {
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_POTRF_ROUTE", "nonsense")
		sel.Reload()
		f(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) {
		f(t, sel.WithPin(context.Background(), "potrf", "nonsense"))
	})
}

// TestNoKernelIgnoresPin: a call that runs no kernel (an empty batch)
// makes no decision, so a bad pin is not read and the call succeeds
// (issue #9); a call that runs a kernel under the same pin fails with a
// *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	badPins(t, func(t *testing.T, ctx context.Context) {
		a := batchFor[float64](testmat.Rand(3), 5, 2, false)
		var pe *sel.PinError
		require.ErrorAs(t, Potrf(ctx, batchlas.Lower, a, nil), &pe, "the pin is bad for a call that runs a kernel")
		_, err := BufferSize(ctx, batchlas.Lower, a)
		require.ErrorAs(t, err, &pe)
		for _, e := range []batchlas.Batch[float64]{batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](0, 0, 3)} {
			for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
				require.NoError(t, Potrf(ctx, uplo, e, nil))
				n, err := BufferSize(ctx, uplo, e)
				require.NoError(t, err)
				require.Zero(t, n)
			}
		}
	})
}

// TestWorkspaceOverlapRefused: potrf has one operand, read and written in
// place, so only its workspace can overlap it: a ws that shares an element
// with a is an ArgError on ws, for the kernels that use one (issue #9).
func TestWorkspaceOverlapRefused(t *testing.T) {
	checked := 0
	for _, c := range Op.Candidates(sel.Float64) {
		a := batchFor[float64](testmat.Rand(4), 16, 2, false)
		need, err := BufferSize(pin(c), batchlas.Upper, a)
		require.NoError(t, err)
		if need == 0 {
			continue
		}
		checked++
		ws := make([]float64, need+len(a.Data))
		x := a
		x.Data = ws[need-1:] // the last element of ws is the first of a
		copy(x.Data, a.Data)
		err = Potrf(pin(c), batchlas.Upper, x, ws)
		var ae *batchlas.ArgError
		require.ErrorAs(t, err, &ae, c.String())
		require.Equal(t, "ws", ae.Arg)
		require.Contains(t, ae.Msg, "ws and a share elements")
		require.Equal(t, a.Data, x.Data[:len(a.Data)], "nothing is written")
	}
	require.Positive(t, checked, "no candidate uses a workspace")
}

// TestIssue31Pivots pins the inputs of issue 31 under every candidate:
// SPD matrices with a pivot below 1/MaxFloat are factored (the tiny
// kernel's reciprocal overflowed and reported info 2), and an infinite
// diagonal pivot has zeros below it, as in LAPACK (tiny wrote NaN).
func TestIssue31Pivots(t *testing.T) {
	for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
		for _, c := range Op.Candidates(sel.Float64) {
			a := batchlas.NewIdentity[float64](2, 1)
			a.Set(0, 0, 0, 1e-309)
			require.NoError(t, Potrf(pin(c), uplo, a, nil), "%s %s: identity with a(0,0) = 1e-309", c, uplo)
			require.InDelta(t, math.Sqrt(1e-309), a.At(0, 0, 0), 1e-160, "%s", c)
			require.Equal(t, 1.0, a.At(0, 1, 1), "%s", c)

			inf := batchlas.NewBatch[float64](2, 2, 1)
			inf.Set(0, 0, 0, math.Inf(1))
			inf.Set(0, 1, 0, 1)
			inf.Set(0, 0, 1, 1)
			inf.Set(0, 1, 1, 4)
			require.NoError(t, Potrf(pin(c), uplo, inf, nil), "%s %s: [[+Inf, 1], [1, 4]]", c, uplo)
			off := inf.At(0, 1, 0)
			if uplo == batchlas.Upper {
				off = inf.At(0, 0, 1)
			}
			require.Equal(t, []float64{math.Inf(1), 0, 2}, []float64{inf.At(0, 0, 0), off, inf.At(0, 1, 1)}, "%s %s: L = [+Inf, 0; 0, 2]", c, uplo)
		}
		for _, c := range Op.Candidates(sel.Float32) {
			a := batchlas.NewIdentity[float32](4, 3)
			for i := range 3 {
				for j := range 4 {
					a.Set(i, j, j, 1e-39)
				}
			}
			require.NoError(t, Potrf(pin(c), uplo, a, nil), "%s %s: float32 diagonal 1e-39", c, uplo)
		}
		for _, c := range Op.Candidates(sel.Float64) {
			a := batchFor[float64](testmat.Rand(31), 3, 5, false)
			for i := range a.Data {
				a.Data[i] *= 1e-310
			}
			require.NoError(t, Potrf(pin(c), uplo, a, nil), "%s %s: SPD scaled by 1e-310 at n=3", c, uplo)
		}
	}
}
