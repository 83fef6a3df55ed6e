package gemm

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// First-use tuning on a real op: a call capped below the device's cores
// never tunes; the same shape uncapped is measured once, through gemm's own
// Measure (trial.go), and its result is right whichever kernel won. The
// device is the host under an identity no table has, so that no own row is
// near the call on any machine.
func TestOnlineTuningRespectsTheParallelismCap(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs two workers to cap below")
	}
	t.Cleanup(sel.Reload) // registered first: runs after t.Setenv restores the variables
	t.Setenv("BATCHLAS_TUNE", "online")
	t.Setenv("BATCHLAS_TUNE_CACHE", t.TempDir())
	sel.Reload()
	d := *batchlas.Host()
	d.Identity = "gemm-online-test"
	ctx := batchlas.WithDevice(context.Background(), &d)
	r := testmat.Rand(7)
	a, b := testmat.Batch[float64](r, 37, 29, 6, 0, 0), testmat.Batch[float64](r, 29, 41, 6, 0, 0)
	c0 := batchlas.NewBatch[float64](37, 41, 6)
	want, bound := oracle(batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c0)
	call := func(ctx context.Context) {
		c := batchlas.NewBatch[float64](37, 41, 6)
		require.NoError(t, Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c, nil))
		checkAgainst(t, "online", c, want, bound)
	}
	before := sel.Measurements()
	call(batchlas.WithParallelism(ctx, 1))
	require.Equal(t, before, sel.Measurements(), "a call capped below the cores never tunes")
	call(batchlas.WithParallelism(ctx, 0))
	require.Equal(t, before, sel.Measurements(), "the shape was decided by the capped call and keeps its decision")
	sel.Reload() // a later process
	call(ctx)
	require.Equal(t, before+1, sel.Measurements(), "uncapped, the shape is measured once")
	call(ctx)
	require.Equal(t, before+1, sel.Measurements())
}
