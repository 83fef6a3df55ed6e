package gesv_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// orders straddle the solve's panel of four columns, getrf's tiny limit
// (16) and its blocked widths (16, 32), and the trsm leaf sizes nested's
// getrs hands the triangles to.
var orders = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 70, 130}

func rhsCounts(n int) []int {
	if n > 70 {
		return []int{1, 33}
	}
	return []int{1, 2, 3, 4, 5, 8, 33}
}

func TestConformance(t *testing.T) { eachCandidate(t, conformance[float32], conformance[float64]) }

// conformance: every order and right-hand-side count, padded (NaN in
// every gap, poison pivots past n) and tight by turns: X solves A*X = B
// by the LU backward-error bound and agrees with gonum's Dgesv.
func conformance[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	for _, n := range orders {
		for _, nrhs := range rhsCounts(n) {
			count := 3
			if n > 70 {
				count = 2
			}
			if !runs(c, n, nrhs, count) {
				continue
			}
			a, ipiv, b := system[T](uint64(100*n+nrhs), n, nrhs, count, (n+nrhs)%2 == 0)
			r := run(t, ctx, a, ipiv, b)
			require.NoError(t, r.err, "%s n=%d nrhs=%d", c, n, nrhs)
			for i := 0; i < count; i++ {
				solved(t, "conformance", a, b, r, i)
			}
		}
	}
}

func TestFactorIsGetrfs(t *testing.T) {
	eachCandidate(t, factorIsGetrfs[float32], factorIsGetrfs[float64])
}

// factorIsGetrfs: gesv leaves in a and ipiv exactly what getrf writes, and
// in b exactly what getrs then writes on the whole batch (a singular
// system's B left as it was), bit for bit: nested calls getrf and getrs
// under the same context; fused runs getrf's recursive
// algorithm (getf2 whole up to its leaf order) and getrs's permatrix
// solve; lanes runs getrf's unblocked algorithm and, below the blocked
// solve's order (32), getrs's permatrix solve.
func factorIsGetrfs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	fctx, sctx := ctx, ctx
	switch c.String() {
	case "fused":
		fctx = sel.WithPin(ctx, "getrf", "recursive")
		sctx = sel.WithPin(ctx, "getrs", "permatrix")
	case "lanes":
		fctx = sel.WithPin(ctx, "getrf", "unblocked")
		sctx = sel.WithPin(ctx, "getrs", "permatrix")
	}
	for _, n := range []int{1, 3, 8, 17, 31, 33, 70} {
		for _, nrhs := range []int{1, 6} {
			if !runs(c, n, nrhs, 5) {
				continue
			}
			what := fmt.Sprintf("%s n=%d nrhs=%d", c, n, nrhs)
			a, ipiv, b := system[T](uint64(n), n, nrhs, 5, n%2 == 0)
			// Matrix 1 exactly singular: its B must be left alone.
			for r := 0; r < n; r++ {
				a.Set(1, r, n/2, 0)
			}
			got := run(t, ctx, a, ipiv, b)
			lu, piv, x := testmat.Clone(a), ipiv, testmat.Clone(b)
			piv.Data = append([]int32(nil), ipiv.Data...)
			ferr := getrf.Getrf(fctx, lu, piv, nil)
			var ne *batchlas.NumericalError
			require.ErrorAs(t, ferr, &ne, what)
			// getrs on the whole batch, the singular system's B put back.
			require.NoError(t, getrs.Getrs(sctx, batchlas.NoTrans, lu, piv, x, nil), what)
			for c := 0; c < nrhs; c++ {
				for r := 0; r < n; r++ {
					x.Set(1, r, c, b.At(1, r, c))
				}
			}
			require.Equal(t, -1, testmat.SameMatrices(got.lu, lu, 0, 5), "%s: the factor differs from getrf's", what)
			require.Equal(t, piv.Data, got.ipiv.Data, "%s: the pivots differ from getrf's", what)
			require.Equal(t, -1, testmat.SameMatrices(got.x, x, 0, 5), "%s: X differs from getrs's", what)
			var gne *batchlas.NumericalError
			require.ErrorAs(t, got.err, &gne, what)
			require.Equal(t, batchlas.NumericalError{Op: "gesv", Index: ne.Index, Info: ne.Info}, *gne, what)
		}
	}
}

// singularKind makes matrix i of a singular in a way whose info is known
// exactly: a zero column k gives info k+1 (every update of a zero column
// subtracts multiples of zero; the earlier pivots are those of a general
// matrix, nonzero), a NaN at (0, 0) info 1 (the first candidate pivot is
// NaN, and i?amax keeps it).
type singularKind struct {
	name string
	info int
	make func(a batchlas.Batch[float64], i int)
}

func singularKinds(n int) []singularKind {
	zeroCol := func(k int) func(a batchlas.Batch[float64], i int) {
		return func(a batchlas.Batch[float64], i int) {
			for r := 0; r < n; r++ {
				a.Set(i, r, k, 0)
			}
		}
	}
	return []singularKind{
		{"zero column 2", 3, zeroCol(2)},
		{"NaN at (0,0)", 1, func(a batchlas.Batch[float64], i int) { a.Set(i, 0, 0, math.NaN()) }},
		{"zero column 0", 1, zeroCol(0)},
		{"zero last column", n, zeroCol(n - 1)},
	}
}

func TestSingular(t *testing.T) { eachCandidate(t, singular[float32], singular[float64]) }

// singular: singular and NaN matrices anywhere in a batch (the middle, the
// ends, every one) are listed in a *NumericalError from gesv with their
// info, which is getrf's; their B is left exactly as it was; every other
// system is solved.
func singular[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	const n, nrhs, count = 9, 3, 7
	kinds := singularKinds(n)
	for _, layout := range [][]int{{2, 3, 5}, {0, 6}, {3}, {0, 1, 2, 3, 4, 5, 6}} {
		for _, padded := range []bool{false, true} {
			what := fmt.Sprintf("%s singular %v padded=%v", c, layout, padded)
			a, ipiv, b := system[T](uint64(len(layout)), n, nrhs, count, padded)
			want := batchlas.NumericalError{Op: "gesv"}
			for k, i := range layout {
				kind := kinds[(k+len(layout))%len(kinds)]
				m := batchlas.NewBatch[float64](n, n, 1)
				for cc := 0; cc < n; cc++ {
					for r := 0; r < n; r++ {
						m.Set(0, r, cc, float64(a.At(i, r, cc)))
					}
				}
				kind.make(m, 0)
				for cc := 0; cc < n; cc++ {
					for r := 0; r < n; r++ {
						a.Set(i, r, cc, T(m.At(0, r, cc)))
					}
				}
				want.Index = append(want.Index, i)
				want.Info = append(want.Info, kind.info)
			}
			r := run(t, ctx, a, ipiv, b)
			var ne *batchlas.NumericalError
			require.ErrorAs(t, r.err, &ne, what)
			require.Equal(t, want, *ne, what)
			// getrf agrees on the info.
			lu, piv := testmat.Clone(a), ipiv
			piv.Data = append([]int32(nil), ipiv.Data...)
			var fne *batchlas.NumericalError
			require.ErrorAs(t, getrf.Getrf(context.Background(), lu, piv, nil), &fne, what)
			require.Equal(t, want.Index, fne.Index, what)
			require.Equal(t, want.Info, fne.Info, what)
			for i := 0; i < count; i++ {
				if contains(layout, i) {
					require.Equal(t, -1, testmat.SameMatrices(r.x, b, i, i+1), "%s: the B of singular matrix %d changed", what, i)
					continue
				}
				solved(t, what, a, b, r, i)
			}
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func TestNoRightHandSides(t *testing.T) {
	eachCandidate(t, noRightHandSides[float32], noRightHandSides[float64])
}

// noRightHandSides: with nrhs == 0 the matrices are still factored (as
// LAPACK's gesv does) and singular ones reported.
func noRightHandSides[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	a, ipiv, b := system[T](3, 6, 0, 3, false)
	for r := 0; r < 6; r++ {
		a.Set(1, r, 2, 0)
	}
	got := run(t, ctx, a, ipiv, b)
	var ne *batchlas.NumericalError
	require.ErrorAs(t, got.err, &ne, c.String())
	require.Equal(t, batchlas.NumericalError{Op: "gesv", Index: []int{1}, Info: []int{3}}, *ne)
	for i := range 3 {
		require.Equal(t, i, testmat.SameMatrices(got.lu, a, i, i+1), "%s: matrix %d was not factored", c, i)
		scale(t, c.String(), got.lu, got.ipiv, i) // valid pivots
	}
	// A B with no column holds no storage, whatever its stride, over more
	// systems than a group of the lanes kernel: nothing indexes it.
	a, ipiv, _ = system[T](4, 6, 0, 40, false)
	empty := batchlas.Batch[T]{Rows: 6, Cols: 0, LD: 6, Stride: 7, Count: 40}
	require.NoError(t, gesv.Gesv(ctx, a, ipiv, empty, nil), "%s: nrhs=0 with no storage", c)
}

func TestBadArguments(t *testing.T) {
	type args struct {
		a, b batchlas.Batch[float64]
		ipiv batchlas.Vectors[int32]
	}
	good := func() args {
		a, ipiv, b := system[float64](1, 4, 2, 3, false)
		return args{a, b, ipiv}
	}
	cases := []struct {
		name, arg, saying string
		edit              func(x *args)
	}{
		{"a not square", "a", "gesv solves square systems", func(x *args) { x.a.Cols = 3 }},
		{"lda too small", "a", "ld 3 < max(1, rows 4)", func(x *args) { x.a.LD = 3 }},
		{"short a", "a", "need", func(x *args) { x.a.Data = x.a.Data[:len(x.a.Data)-1] }},
		{"broadcast a", "a", "a is a broadcast", func(x *args) { x.a = batchlas.Broadcast(x.a, 3) }},
		{"overlapping a", "a", "matrices overlap", func(x *args) { x.a.Stride = 15 }},
		{"b rows", "b", "b has 5 rows", func(x *args) {
			_, _, x.b = system[float64](1, 5, 2, 3, false)
		}},
		{"b count", "b", "b.Count 2 != a.Count 3", func(x *args) { x.b.Count = 2 }},
		{"ldb too small", "b", "ld 2 < max(1, rows 4)", func(x *args) { x.b.LD = 2 }},
		{"broadcast b", "b", "b is a broadcast", func(x *args) { x.b = batchlas.Broadcast(x.b, 3) }},
		{"b shares a", "b", "b and a share elements", func(x *args) {
			x.b = x.a
			x.b.Cols = 2
		}},
		{"ipiv count", "ipiv", "ipiv.Count 2 != a.Count 3", func(x *args) { x.ipiv.Count = 2 }},
		{"ipiv len", "ipiv", "ipiv.Len 3 < n 4", func(x *args) { x.ipiv.Len, x.ipiv.Stride = 3, 3 }},
		{"ipiv broadcast", "ipiv", "ipiv is a broadcast", func(x *args) { x.ipiv = batchlas.BroadcastVectors(x.ipiv, 3) }},
		{"ipiv short", "ipiv", "need", func(x *args) { x.ipiv.Data = x.ipiv.Data[:len(x.ipiv.Data)-1] }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := good()
			tc.edit(&x)
			a0, b0 := append([]float64(nil), x.a.Data...), append([]float64(nil), x.b.Data...)
			for what, err := range map[string]error{
				"Gesv":       gesv.Gesv(context.Background(), x.a, x.ipiv, x.b, nil),
				"BufferSize": func() error { _, err := gesv.BufferSize(context.Background(), x.a, x.ipiv, x.b); return err }(),
			} {
				var ae *batchlas.ArgError
				if !errors.As(err, &ae) || ae.Op != "gesv" || ae.Arg != tc.arg || !strings.Contains(err.Error(), tc.saying) {
					t.Errorf("%s: got %v, want an ArgError from gesv on %s saying %q", what, err, tc.arg, tc.saying)
				}
			}
			if !sameBits(x.a.Data, a0) || !sameBits(x.b.Data, b0) {
				t.Error("a refused call wrote a or b")
			}
		})
	}
}

// TestCanRunEqualsLaunch pins every candidate on the host and on the host
// without its vendor libraries (nested's getrf and getrs then choose
// native kernels): the pinned call succeeds exactly when can_run says so.
func TestCanRunEqualsLaunch(t *testing.T) {
	host := batchlas.Host()
	bare := *host
	bare.Flags = nil
	for _, f := range host.Flags {
		if !strings.HasPrefix(f, "vendor:") {
			bare.Flags = append(bare.Flags, f)
		}
	}
	for _, dev := range []*sel.Device{host, &bare} {
		for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
			for _, c := range gesv.Op.Candidates(dt) {
				for _, n := range []int{1, 8, 33} {
					ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), dev), "gesv", c.String())
					want := gesv.Op.CanRun(c, sel.MakeKey(sel.Int(n), sel.Int(2), sel.Int(2)), dev)
					var err error
					if dt == sel.Float32 {
						a, ipiv, b := system[float32](1, n, 2, 2, false)
						err = gesv.Gesv(ctx, a, ipiv, b, nil)
					} else {
						a, ipiv, b := system[float64](1, n, 2, 2, false)
						err = gesv.Gesv(ctx, a, ipiv, b, nil)
					}
					if (err == nil) != want {
						t.Errorf("%s %s on %v n=%d: can_run %v but the pinned call returned %v", dt, c, dev.Flags, n, want, err)
					}
				}
			}
		}
	}
}

// TestWorkspace: a candidate that uses a workspace refuses one element
// less than BufferSize, and one that shares an element with a or b, with
// an ArgError on ws and nothing written; nested, with getrs's nested
// kernel (whose trsm calls take a workspace), does use one.
func TestWorkspace(t *testing.T) {
	checked := 0
	for _, c := range gesv.Op.Candidates(sel.Float64) {
		{
			inner := "getrs nested"
			ctx := sel.WithPin(pin(context.Background(), c), "getrs", "nested")
			a, ipiv, b := system[float64](2, 20, 3, 3, false)
			need, err := gesv.BufferSize(ctx, a, ipiv, b)
			require.NoError(t, err)
			if need == 0 {
				continue
			}
			checked++
			a0, b0 := testmat.Clone(a), testmat.Clone(b)
			err = gesv.Gesv(ctx, a, ipiv, b, make([]float64, need-1))
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae, "%s/%s", c, inner)
			require.Equal(t, "ws", ae.Arg)
			for _, tc := range []struct {
				name string
				x    *batchlas.Batch[float64]
			}{{"a", &a}, {"b", &b}} {
				keep := *tc.x
				ws := make([]float64, need+len(keep.Data))
				tc.x.Data = ws[need-1:] // the last element of ws is the first of x
				copy(tc.x.Data, keep.Data)
				err := gesv.Gesv(ctx, a, ipiv, b, ws)
				require.ErrorAs(t, err, &ae, "%s/%s ws meets %s", c, inner, tc.name)
				require.Equal(t, "ws", ae.Arg)
				require.Contains(t, ae.Msg, "ws and "+tc.name+" share elements")
				*tc.x = keep
			}
			require.True(t, sameBits(a.Data, a0.Data) && sameBits(b.Data, b0.Data), "%s/%s: a refused call wrote", c, inner)
		}
	}
	require.Positive(t, checked, "no candidate uses a workspace")
}

// TestNestedCallsGetrfAndGetrs: nested factors and solves through getrf's
// and getrs's entry points, so their scoped pins reach it (a bad one is
// nested's error), while fused calls neither.
func TestNestedCallsGetrfAndGetrs(t *testing.T) {
	for _, op := range []string{"getrf", "getrs"} {
		bad := sel.WithPin(context.Background(), op, "no_such_kernel")
		for _, c := range gesv.Op.Candidates(sel.Float64) {
			a, ipiv, b := system[float64](3, 20, 2, 4, false)
			err := gesv.Gesv(pin(bad, c), a, ipiv, b, nil)
			var pe *sel.PinError
			if c.String() == "nested" {
				if !errors.As(err, &pe) {
					t.Errorf("nested under a bad %s pin: got %v, want its *sel.PinError", op, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s under a bad %s pin: %v", c, op, err)
			}
		}
	}
}

// TestEmpty: no matrix or n == 0 succeeds without touching anything, even
// with an invalid pin (no decision is made).
func TestEmpty(t *testing.T) {
	ctx := sel.WithPin(context.Background(), "gesv", "no_such_kernel")
	for _, s := range []struct{ n, nrhs, count int }{{4, 3, 0}, {0, 3, 2}, {0, 0, 2}} {
		a := batchlas.NewBatch[float64](s.n, s.n, s.count)
		ipiv := batchlas.NewVectors[int32](s.n, s.count)
		b := batchlas.NewBatch[float64](s.n, s.nrhs, s.count)
		require.NoError(t, gesv.Gesv(ctx, a, ipiv, b, nil), "%+v", s)
		n, err := gesv.BufferSize(ctx, a, ipiv, b)
		require.NoError(t, err, "%+v", s)
		require.Zero(t, n, "%+v", s)
	}
	a, ipiv, b := system[float64](1, 3, 1, 2, false)
	var pe *sel.PinError
	require.ErrorAs(t, gesv.Gesv(ctx, a, ipiv, b, nil), &pe, "a call that runs a kernel reads the pin")
	_, err := gesv.BufferSize(ctx, a, ipiv, b)
	require.ErrorAs(t, err, &pe)
}

// TestNilContext: a nil context is context.Background() for Gesv and
// BufferSize.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	a, ipiv, b := system[float64](4, 12, 3, 3, false)
	want := run(t, context.Background(), a, ipiv, b)
	require.NoError(t, want.err)
	n, err := gesv.BufferSize(nilCtx, a, ipiv, b)
	require.NoError(t, err)
	require.NoError(t, gesv.Gesv(nilCtx, a, ipiv, b, make([]float64, n)))
	require.True(t, sameBits(a.Data, want.lu.Data) && sameBits(b.Data, want.x.Data))
}

// TestConcurrent runs every candidate (and the automatic choice) from many
// goroutines at once, with a singular matrix in every batch.
// go test -race race-checks it; make race races every op at once
// (internal/allops).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		for _, c := range gesv.Op.Candidates(sel.Float64) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx := pin(context.Background(), c)
				if g%4 == 3 {
					ctx = context.Background()
				}
				n := 5 + 4*g
				a, ipiv, b := system[float64](uint64(g), n, 3, 40, g%2 == 0)
				for r := 0; r < n; r++ {
					a.Set(7, r, 1, 0)
				}
				lu, x := testmat.Clone(a), testmat.Clone(b)
				err := gesv.Gesv(ctx, lu, ipiv, x, nil)
				var ne *batchlas.NumericalError
				if !errors.As(err, &ne) || len(ne.Index) != 1 || ne.Index[0] != 7 || ne.Info[0] != 2 {
					t.Errorf("goroutine %d %s: got %v, want matrix 7 singular with info 2", g, c, err)
					return
				}
				for i := 0; i < a.Count; i += 13 {
					solved(t, "concurrent", a, b, result[float64]{lu: lu, ipiv: ipiv, x: x}, i)
				}
			}()
		}
	}
	wg.Wait()
}
