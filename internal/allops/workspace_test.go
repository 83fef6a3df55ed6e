package allops_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/syev"
	sel "github.com/batchlas-go/batchlas/select"
)

// withProcs runs the test with GOMAXPROCS n, so that WithParallelism(8)
// allows 8 workers on a machine of fewer cores.
func withProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// TestWorkspaceSizedUnderOneWorker: the case, through the ops: a
// workspace from BufferSize under WithParallelism(1), used by a call under
// WithParallelism(8), is refused as sized for fewer workers, naming the
// op's BufferSize and the context; sized under the call's context it runs.
func TestWorkspaceSizedUnderOneWorker(t *testing.T) {
	withProcs(t, 8)
	one := batchlas.WithParallelism(context.Background(), 1)
	eight := batchlas.WithParallelism(context.Background(), 8)

	a := batchlas.NewIdentity[float64](8, 64)
	pin := func(ctx context.Context) context.Context { return sel.WithPin(ctx, "potrf", "lanes") }
	n1, err := potrf.BufferSize(pin(one), batchlas.Lower, a)
	require.NoError(t, err)
	n8, err := potrf.BufferSize(pin(eight), batchlas.Lower, a)
	require.NoError(t, err)
	require.Greater(t, n8, n1, "lanes' workspace is per worker")
	err = potrf.Potrf(pin(eight), batchlas.Lower, a, make([]float64, n1))
	testmat.RequireArgError(t, err, "potrf", "ws", "the workspace was sized for fewer workers")
	require.ErrorContains(t, err, "size it with potrf.BufferSize under the same context as the call")
	require.NoError(t, potrf.Potrf(pin(eight), batchlas.Lower, a, make([]float64, n8)))

	s := batchlas.NewIdentity[float64](6, 64)
	w := batchlas.NewVectors[float64](6, 64)
	spin := func(ctx context.Context) context.Context { return sel.WithPin(ctx, "syev", "tridiag") }
	m1, err := syev.BufferSize(spin(one), syev.WithVectors, batchlas.Lower, s, w)
	require.NoError(t, err)
	m8, err := syev.BufferSize(spin(eight), syev.WithVectors, batchlas.Lower, s, w)
	require.NoError(t, err)
	require.Greater(t, m8, m1, "tridiag's workspace is per worker")
	err = syev.Syev(spin(eight), syev.WithVectors, batchlas.Lower, s, w, make([]float64, m1))
	testmat.RequireArgError(t, err, "syev", "ws", "the workspace was sized for fewer workers")
	require.ErrorContains(t, err, "size it with syev.BufferSize under the same context as the call")
}
