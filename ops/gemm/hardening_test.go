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

// view is the rows x cols sub-matrix at (r0, c0) of every matrix of p.
func view(p batchlas.Batch[float64], r0, c0, rows, cols int) batchlas.Batch[float64] {
	return batchlas.Batch[float64]{Data: p.Data[c0*p.LD+r0:], Rows: rows, Cols: cols, LD: p.LD, Stride: p.Stride, Count: p.Count}
}

// TestOverlapRefused: C sharing an element with A or B is an ArgError
// naming c and the other operand, from Gemm (every candidate, alpha 0
// included) and BufferSize, before anything is written (issue #9). It used
// to give a wrong result.
func TestOverlapRefused(t *testing.T) {
	const m, k, n, count = 4, 4, 3, 2
	r := testmat.Rand(11)
	parent := testmat.Batch[float64](r, 9, 9, count, 0, 0)
	own := func(rows, cols int) batchlas.Batch[float64] {
		return testmat.Batch[float64](r, rows, cols, count, 0, 0)
	}
	cases := []struct {
		name    string
		a, b, c batchlas.Batch[float64]
		other   string
	}{
		{"c is a", view(parent, 0, 0, m, k), own(k, n), view(parent, 0, 0, m, n), "a"},
		{"c is b", own(m, k), view(parent, 0, 0, k, n), view(parent, 0, 0, m, n), "b"},
		{"c's last element is a's first", view(parent, m-1, n-1, m, k), own(k, n), view(parent, 0, 0, m, n), "a"},
		{"c shares one row with a", view(parent, 0, 0, m, k), own(k, n), view(parent, m-1, 2, m, n), "a"},
		{"c meets broadcast b in its second matrix", own(m, k), func() batchlas.Batch[float64] {
			x := view(parent, 0, 0, k, n)
			x.Data = parent.Data[parent.Stride+2:]
			return batchlas.Broadcast(x, count)
		}(), view(parent, 0, 0, m, n), "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(t *testing.T, what string, err error) {
				t.Helper()
				var ae *batchlas.ArgError
				require.ErrorAs(t, err, &ae, what)
				require.Equal(t, "gemm", ae.Op, what)
				require.Equal(t, "c", ae.Arg, what)
				require.Contains(t, ae.Msg, "c and "+tc.other+" share elements", what)
			}
			before := append([]float64(nil), parent.Data...)
			forEachCandidate(t, func(t *testing.T, dt sel.DType, ch sel.Choice) {
				if dt != sel.Float64 {
					return
				}
				check(t, "Gemm", Gemm(pinned(ch), batchlas.NoTrans, batchlas.NoTrans, 1, tc.a, tc.b, 1, tc.c, nil))
			})
			check(t, "Gemm alpha 0", Gemm(t.Context(), batchlas.NoTrans, batchlas.NoTrans, 0, tc.a, tc.b, 2, tc.c, nil))
			_, err := BufferSize(t.Context(), batchlas.NoTrans, batchlas.NoTrans, tc.a, tc.b, tc.c)
			check(t, "BufferSize", err)
			require.Equal(t, before, parent.Data, "nothing is written")
		})
	}
}

// TestDisjointViews: A, B and C as sub-matrices of one parent batch, one
// above the other in the same columns ([A; C; B] down each column, so
// their address ranges interleave), share no element: every candidate runs
// the call and gets the right result, touching nothing else of the parent.
func TestDisjointViews(t *testing.T) {
	const m, k, n, count = 5, 4, 3, 3
	forEachCandidate(t, func(t *testing.T, dt sel.DType, ch sel.Choice) {
		if dt != sel.Float64 {
			return
		}
		for _, tr := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
			ar, ac := m, k
			if tr == batchlas.Trans {
				ar, ac = k, m
			}
			ld, cols := ar+m+k+1, max(ac, n)
			parent := testmat.Batch[float64](testmat.Rand(12), ld, cols, count, ld, ld*cols+2)
			a := view(parent, 0, 0, ar, ac)
			c := view(parent, ar, 0, m, n)
			b := view(parent, ar+m, 0, k, n)
			require.False(t, batchlas.Overlap(c, a))
			require.False(t, batchlas.Overlap(c, b))
			want, bound := oracle(tr, batchlas.NoTrans, 1.5, a, b, 0.5, c)
			before := append([]float64(nil), parent.Data...)
			need, err := BufferSize(pinned(ch), tr, batchlas.NoTrans, a, b, c)
			require.NoError(t, err)
			require.NoError(t, Gemm(pinned(ch), tr, batchlas.NoTrans, 1.5, a, b, 0.5, c, testmat.NaNs[float64](need)))
			checkAgainst(t, "views "+tr.String(), c, want, bound)
			for e := range parent.Data {
				i, col, row := e/parent.Stride, e%parent.Stride/ld, e%parent.Stride%ld
				inC := i < count && col < n && row >= ar && row < ar+m
				if !inC && parent.Data[e] != before[e] {
					t.Fatalf("%s: element (%d,%d) of parent %d, outside c, changed", tr, row, col, i)
				}
			}
		}
	})
}

// TestWorkspaceOverlapRefused: a workspace that shares an element with an
// operand is an ArgError on ws, for the kernels that use one.
func TestWorkspaceOverlapRefused(t *testing.T) {
	s := shape{batchlas.NoTrans, batchlas.NoTrans, 40, 30, 20, 2}
	checked := 0
	for _, ch := range Op.Candidates(sel.Float64) {
		a, b, c := operands[float64](testmat.Rand(13), s, layout{})
		need, err := BufferSize(pinned(ch), s.ta, s.tb, a, b, c)
		require.NoError(t, err)
		if need == 0 {
			continue
		}
		checked++
		for _, tc := range []struct {
			name string
			x    *batchlas.Batch[float64]
		}{{"a", &a}, {"b", &b}, {"c", &c}} {
			ws := make([]float64, need+len(tc.x.Data))
			keep := *tc.x
			tc.x.Data = ws[need-1:] // the last element of ws is the first of x
			copy(tc.x.Data, keep.Data)
			err := Gemm(pinned(ch), s.ta, s.tb, 1, a, b, 1, c, ws)
			var ae *batchlas.ArgError
			require.ErrorAs(t, err, &ae, "%s, ws meets %s", ch, tc.name)
			require.Equal(t, "ws", ae.Arg)
			require.Contains(t, ae.Msg, "ws and "+tc.name+" share elements")
			*tc.x = keep
		}
	}
	require.Positive(t, checked, "no candidate uses a workspace")
}
