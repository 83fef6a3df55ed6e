package gemm

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
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
