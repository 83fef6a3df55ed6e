package opkit

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestArgf(t *testing.T) {
	err := Argf("gemm", "lda", "lda %d < m %d", 3, 4)
	testmat.RequireArgError(t, err, "gemm", "lda", "gemm: lda 3 < m 4")
}

func TestInfoError(t *testing.T) {
	require.NoError(t, InfoError("potrf", []int32{0, 0, 0}))
	err := InfoError("potrf", []int32{0, 3, 0, 1})
	var ne *batchlas.NumericalError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, []int{1, 3}, ne.Index)
	require.Equal(t, []int{3, 1}, ne.Info)
	require.Equal(t, "potrf: 2 matrix(es) failed: #1 (info 3) #3 (info 1)", err.Error())
	many := make([]int32, 20)
	for i := range many {
		many[i] = 1
	}
	require.Contains(t, InfoError("potrf", many).Error(), "and 12 more")
}

func TestInterrupted(t *testing.T) {
	err := Interrupted("trsm", &batchlas.InterruptedError{Count: 4, Completed: 1, Touched: 1, Err: context.Canceled})
	var ie *batchlas.InterruptedError
	require.ErrorAs(t, err, &ie)
	require.Equal(t, "trsm", ie.Op)
	require.ErrorIs(t, err, context.Canceled)
	other := errors.New("other")
	require.Same(t, other, Interrupted("trsm", other))
	require.NoError(t, Interrupted("trsm", nil))
}

func TestDTypeOf(t *testing.T) {
	require.EqualValues(t, "float32", DTypeOf[float32]())
	require.EqualValues(t, "float64", DTypeOf[float64]())
}

func TestDeviceFromContext(t *testing.T) {
	require.Same(t, batchlas.Host(), DeviceFrom(context.Background()))
	other := &sel.Device{Key: "sm_90", Family: "sm", Arch: 90, Class: sel.GPU}
	require.Same(t, other, DeviceFrom(batchlas.WithDevice(context.Background(), other)))
	// A nil device is no device: the host.
	require.Same(t, batchlas.Host(), DeviceFrom(batchlas.WithDevice(context.Background(), nil)))
}

// TestNilContext: a nil context is context.Background(), in Context,
// DeviceFrom, ParallelismFrom, WithDevice and WithParallelism alike
// (issue #9).
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	require.Equal(t, context.Background(), Context(nilCtx))
	ctx := batchlas.WithParallelism(context.Background(), 2)
	require.Equal(t, ctx, Context(ctx))
	require.Same(t, batchlas.Host(), DeviceFrom(nilCtx))
	other := &sel.Device{Key: "sm_90", Family: "sm", Arch: 90, Class: sel.GPU}
	require.Same(t, other, DeviceFrom(batchlas.WithDevice(nilCtx, other)))
	require.Equal(t, 0, ParallelismFrom(nilCtx))
	require.Equal(t, 3, ParallelismFrom(batchlas.WithParallelism(nilCtx, 3)))
}

func TestParallelismFrom(t *testing.T) {
	bg := context.Background()
	require.Equal(t, 0, ParallelismFrom(bg))
	require.Equal(t, 1, ParallelismFrom(batchlas.WithParallelism(bg, 1)))
	four := batchlas.WithParallelism(bg, 4)
	require.Equal(t, 4, ParallelismFrom(four))
	require.Equal(t, 0, ParallelismFrom(batchlas.WithParallelism(four, -1)), "n <= 0 lifts an outer cap")
	// The device and the cap are separate values of one context.
	other := &sel.Device{Key: "sm_90", Family: "sm", Arch: 90, Class: sel.GPU}
	both := batchlas.WithDevice(four, other)
	require.Equal(t, 4, ParallelismFrom(both))
	require.Same(t, other, DeviceFrom(both))
}

// TestBuiltinTables: the root package's embedded tuned/ directory, with
// its README and only tables beside it.
func TestBuiltinTables(t *testing.T) {
	fsys := BuiltinTables()
	require.NotNil(t, fsys)
	ents, err := fs.ReadDir(fsys, ".")
	require.NoError(t, err)
	for _, e := range ents {
		if e.Name() != "README.md" {
			require.True(t, strings.HasSuffix(e.Name(), ".txt"), e.Name())
		}
	}
}

// TestCheckDisjoint: the concrete layouts of issue #9, with the element
// the error names.
func TestCheckDisjoint(t *testing.T) {
	// [A | B] side by side in the same columns: B starts at row m of each
	// column, LD >= m+p. Address ranges interleave, elements do not.
	const m, p, n, count = 3, 2, 4, 5
	ld := m + p + 1
	parent := make([]float64, ld*n*count)
	av := batchlas.Batch[float64]{Data: parent, Rows: m, Cols: n, LD: ld, Stride: ld * n, Count: count}
	bv := batchlas.Batch[float64]{Data: parent[m:], Rows: p, Cols: n, LD: ld, Stride: ld * n, Count: count}
	require.NoError(t, CheckDisjoint("gemm", "c", bv, "a", av))
	// One row more and they share row m of every column.
	bv.Data = parent[m-1:]
	err := CheckDisjoint("gemm", "c", bv, "a", av)
	testmat.RequireArgError(t, err, "gemm", "c", "a written operand must not share an element with another operand")
	require.True(t, strings.HasPrefix(err.Error(), "gemm: c and a share elements (c[0](0,0) is a[0](2,0))"), err.Error())
	// Different arrays and empty batches share nothing.
	require.NoError(t, CheckDisjoint("gemm", "c", batchlas.NewBatch[float64](3, 3, 2), "a", av))
	require.NoError(t, CheckDisjoint("gemm", "c", batchlas.Batch[float64]{Data: parent, Rows: 0, Cols: 3, LD: 1, Count: 2}, "a", av))
	// The same batch twice shares every element.
	testmat.RequireArgError(t, CheckDisjoint("op", "x", av, "y", av), "op", "x", "x and y share elements (x[0](0,0) is y[0](0,0))")
	// A matrix past the first names its index.
	later := batchlas.Batch[float64]{Data: parent[2*ld*n+ld:], Rows: 1, Cols: 1, LD: 1, Count: 1}
	testmat.RequireArgError(t, CheckDisjoint("op", "w", later, "a", av), "op", "w", "(w[0](0,0) is a[2](0,1))")
}

// Vectors and matrices of one element type share storage only where they
// share elements: batchlas.VectorsAsBatch puts vectors in the checks.
func TestCheckDisjointVectors(t *testing.T) {
	data := make([]float64, 40)
	a := batchlas.Batch[float64]{Data: data, Rows: 2, Cols: 2, LD: 4, Stride: 8, Count: 5} // rows 0-1 of each 4-row column
	w := batchlas.Vectors[float64]{Data: data[2:], Len: 2, Stride: 8, Count: 5}            // rows 2-3 of column 0
	require.NoError(t, CheckDisjoint("syev", "w", batchlas.VectorsAsBatch(w), "a", a))
	w2 := batchlas.Vectors[float64]{Data: data[1:], Len: 2, Stride: 8, Count: 5}
	testmat.RequireArgError(t, CheckDisjoint("syev", "w", batchlas.VectorsAsBatch(w2), "a", a), "syev", "w", "w and a share elements (w[0](0,0) is a[0](1,0))")
}

// TestCheckWorkspace: a workspace of one element is refused when it is an
// operand's first or last element (or any between), and accepted just
// before the first or just past the last, and in the padding between
// columns.
func TestCheckWorkspace(t *testing.T) {
	parent := make([]float64, 40)
	// Two 2x2 matrices of LD 3 and stride 7, from element 10: elements
	// 10, 11, 13, 14 and 17, 18, 20, 21.
	x, err := batchlas.WrapStrided(parent[10:], 2, 2, 3, 7, 2)
	require.NoError(t, err)
	for _, e := range []int{10, 11, 13, 14, 17, 21} {
		err := CheckWorkspace("op", parent[e:e+1], "x", x)
		testmat.RequireArgError(t, err, "op", "ws", "ws and x share elements (ws[0] is x[")
	}
	for _, e := range []int{9, 12, 15, 16, 19, 22} {
		require.NoError(t, CheckWorkspace("op", parent[e:e+1], "x", x), "element %d is not x's", e)
	}
	err = CheckWorkspace("op", parent[21:22], "x", x)
	require.ErrorContains(t, err, "ws[0] is x[1](1,1)")
	err = CheckWorkspace("op", parent[10:11], "x", x)
	require.ErrorContains(t, err, "ws[0] is x[0](0,0)")
	// A longer workspace whose last element is x's first.
	err = CheckWorkspace("op", parent[5:11], "x", x)
	require.ErrorContains(t, err, "ws[5] is x[0](0,0)")
	// No workspace shares nothing.
	require.NoError(t, CheckWorkspace("op", nil, "x", x))
	require.NoError(t, CheckWorkspace("op", parent[:0], "x", x))
}

// withProcs runs the test with GOMAXPROCS n, so that WithParallelism(8)
// allows 8 workers on a machine of fewer cores.
func withProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// TestWorkspaceShortSaysFewerWorkers: a workspace that would do for fewer
// workers than the call may use is reported as sized for fewer workers,
// with what to do; one too short for any is reported as short.
func TestWorkspaceShortSaysFewerWorkers(t *testing.T) {
	withProcs(t, 8)
	perWorker := func(ctx context.Context) int {
		w := runtime.GOMAXPROCS(0)
		if p := ParallelismFrom(ctx); p > 0 {
			w = min(w, p)
		}
		return 10 * w
	}
	ctx := batchlas.WithParallelism(context.Background(), 8)
	err := WorkspaceShort(ctx, "potrf", "lanes", 10, 80, perWorker)
	testmat.RequireArgError(t, err, "potrf", "ws", "ws has 10 elements, enough for kernel lanes on 1 worker(s), but this call may use more workers and needs 80: the workspace was sized for fewer workers")
	require.ErrorContains(t, err, "size it with potrf.BufferSize under the same context as the call, or pass nil")
	err = WorkspaceShort(ctx, "potrf", "lanes", 35, 80, perWorker)
	require.ErrorContains(t, err, "enough for kernel lanes on 3 worker(s)")

	fixed := func(context.Context) int { return 80 }
	err = WorkspaceShort(ctx, "potrf", "tiled", 10, 80, fixed)
	testmat.RequireArgError(t, err, "potrf", "ws", "ws has 10 elements, kernel tiled needs 80; size it with potrf.BufferSize or pass nil")
	err = WorkspaceShort(ctx, "potrf", "tiled", 10, 80, func(context.Context) int { return -1 })
	require.ErrorContains(t, err, "kernel tiled needs 80; size it")
	err = WorkspaceShort(nil, "potrf", "tiled", 10, 80, nil) //nolint:staticcheck // a nil context is Background
	testmat.RequireArgError(t, err, "potrf", "ws", "kernel tiled needs 80")
}
