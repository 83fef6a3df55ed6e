package getrf

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNilContext: a nil context is context.Background() for Getrf and
// BufferSize: no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	a := randomBatch[float64](testmat.Rand(41), 20, 3, false)
	want := testmat.Clone(a)
	wantPiv := pivotsFor(20, 3, false)
	require.NoError(t, Getrf(context.Background(), want, wantPiv, nil))
	ipiv := pivotsFor(20, 3, false)
	n, err := BufferSize(nilCtx, a, ipiv)
	require.NoError(t, err)
	require.NoError(t, Getrf(nilCtx, a, ipiv, make([]float64, n)))
	require.Equal(t, want.Data, a.Data)
	require.Equal(t, wantPiv.Data, ipiv.Data)
	require.NoError(t, Getrf(nilCtx, batchlas.NewBatch[float64](4, 4, 0), pivotsFor(4, 0, false), nil))
}

// badPins runs f once with a bad environment pin (BATCHLAS_GETRF_ROUTE,
// re-read by sel.Reload) and once with a bad scoped pin.
func badPins(t *testing.T, f func(t *testing.T, ctx context.Context)) {
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_GETRF_ROUTE", "nonsense")
		sel.Reload()
		f(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) {
		f(t, sel.WithPin(context.Background(), "getrf", "nonsense"))
	})
}

// TestNoKernelIgnoresPin: a call that runs no kernel (an empty batch)
// makes no decision, so a bad pin is not read and the call succeeds; a
// call that runs a kernel under the same pin fails with a *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	badPins(t, func(t *testing.T, ctx context.Context) {
		a := randomBatch[float64](testmat.Rand(42), 5, 2, false)
		var pe *sel.PinError
		require.ErrorAs(t, Getrf(ctx, a, pivotsFor(5, 2, false), nil), &pe, "the pin is bad for a call that runs a kernel")
		_, err := BufferSize(ctx, a, pivotsFor(5, 2, false))
		require.ErrorAs(t, err, &pe)
		for _, e := range []batchlas.Batch[float64]{batchlas.NewBatch[float64](4, 4, 0), batchlas.NewBatch[float64](0, 0, 3)} {
			v := pivotsFor(e.Rows, e.Count, false)
			require.NoError(t, Getrf(ctx, e, v, nil))
			n, err := BufferSize(ctx, e, v)
			require.NoError(t, err)
			require.Zero(t, n)
		}
	})
}

// TestWorkspaceOverlapRefused: getrf's a is read and written in place, so
// only the workspace can overlap it: a ws that shares an element with a
// is an ArgError on ws, for the kernels that use one, and nothing is
// written.
func TestWorkspaceOverlapRefused(t *testing.T) {
	checked := 0
	for _, c := range Op.Candidates(sel.Float64) {
		a := randomBatch[float64](testmat.Rand(43), 16, 2, false)
		ipiv := pivotsFor(16, 2, false)
		need, err := BufferSize(pin(c), a, ipiv)
		require.NoError(t, err)
		if need == 0 {
			continue
		}
		checked++
		ws := make([]float64, need+len(a.Data))
		x := a
		x.Data = ws[need-1:] // the last element of ws is the first of a
		copy(x.Data, a.Data)
		err = Getrf(pin(c), x, ipiv, ws)
		var ae *batchlas.ArgError
		require.ErrorAs(t, err, &ae, c.String())
		require.Equal(t, "ws", ae.Arg)
		require.Contains(t, ae.Msg, "ws and a share elements")
		require.Equal(t, a.Data, x.Data[:len(a.Data)], "nothing is written")
		require.Equal(t, -1, pivotsUntouched(ipiv, 0), "no pivot is written")
	}
	if len(vendorFloat64) > 0 {
		require.Positive(t, checked, "the vendor kernel uses a workspace")
	}
}
