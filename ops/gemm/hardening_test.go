package gemm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNilContext: a nil context is context.Background() for Gemm and
// BufferSize (issue #9): no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	s := shape{batchlas.NoTrans, batchlas.Trans, 5, 4, 3, 3}
	a, b, c := operands[float64](testmat.Rand(1), s, layout{})
	want := testmat.Clone(c)
	require.NoError(t, Gemm(context.Background(), s.ta, s.tb, 1.5, a, b, 0.5, want, nil))
	n, err := BufferSize(nilCtx, s.ta, s.tb, a, b, c)
	require.NoError(t, err)
	require.NoError(t, Gemm(nilCtx, s.ta, s.tb, 1.5, a, b, 0.5, c, make([]float64, n)))
	require.Equal(t, want.Data, c.Data)
	// The quick return (alpha == 0) and the empty batch take nil too.
	require.NoError(t, Gemm(nilCtx, s.ta, s.tb, 0, a, b, 2, c, nil))
	empty := batchlas.Batch[float64]{Rows: 3, Cols: 3, LD: 3, Stride: 9}
	require.NoError(t, Gemm(nilCtx, batchlas.NoTrans, batchlas.NoTrans, 1, empty, empty, 1, empty, nil))
}

// badPins runs f once with a bad environment pin (BATCHLAS_GEMM_ROUTE,
// re-read by sel.Reload) and once with a bad scoped pin.
func badPins(t *testing.T, f func(t *testing.T, ctx context.Context)) {
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_GEMM_ROUTE", "nonsense")
		sel.Reload()
		f(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) {
		f(t, sel.WithPin(context.Background(), opName, "nonsense"))
	})
}

// TestNoKernelIgnoresPin: a call that runs no kernel (an empty C, k == 0,
// alpha == 0) makes no decision, so a bad pin is not read and the call
// succeeds with BLAS's result (issue #9); a call that runs a kernel under
// the same pin fails with a *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	badPins(t, func(t *testing.T, ctx context.Context) {
		nn := batchlas.NoTrans
		a, b, c := batchlas.NewBatch[float64](2, 3, 2), batchlas.NewBatch[float64](3, 2, 2), batchlas.NewBatch[float64](2, 2, 2)
		var pe *sel.PinError
		require.ErrorAs(t, Gemm(ctx, nn, nn, 1, a, b, 1, c, nil), &pe, "the pin is bad for a call that runs a kernel")
		_, err := BufferSize(ctx, nn, nn, a, b, c)
		require.ErrorAs(t, err, &pe)

		for _, e := range []struct {
			name    string
			a, b, c batchlas.Batch[float64]
			scaled  float64 // what C's storage is multiplied by
		}{
			{"empty batch", batchlas.NewBatch[float64](2, 3, 0), batchlas.NewBatch[float64](3, 2, 0), batchlas.NewBatch[float64](2, 2, 0), 1},
			{"m = 0", batchlas.NewBatch[float64](0, 3, 2), batchlas.NewBatch[float64](3, 2, 2), batchlas.NewBatch[float64](0, 2, 2), 1},
			{"n = 0", batchlas.NewBatch[float64](2, 3, 2), batchlas.NewBatch[float64](3, 0, 2), batchlas.NewBatch[float64](2, 0, 2), 1},
			{"k = 0", batchlas.NewBatch[float64](2, 0, 2), batchlas.NewBatch[float64](0, 2, 2), batchlas.NewBatch[float64](2, 2, 2), 2},
		} {
			fill(e.c.Data)
			require.NoError(t, Gemm(ctx, nn, nn, 1, e.a, e.b, 2, e.c, nil), e.name)
			for i, v := range e.c.Data {
				require.Equal(t, e.scaled*float64(i+1), v, "%s: C = beta*C", e.name)
			}
			n, err := BufferSize(ctx, nn, nn, e.a, e.b, e.c)
			require.NoError(t, err, e.name)
			require.Zero(t, n, e.name)
		}
		// alpha == 0: C = beta*C. BufferSize does not see alpha.
		fill(c.Data)
		require.NoError(t, Gemm(ctx, nn, nn, 0, a, b, 3, c, nil))
		for i, v := range c.Data {
			require.Equal(t, 3*float64(i+1), v, "alpha 0: C = beta*C")
		}
	})
}

// fill sets x to 1, 2, 3, ...
func fill(x []float64) {
	for i := range x {
		x[i] = float64(i + 1)
	}
}
