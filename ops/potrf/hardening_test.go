package potrf

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
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
