package trsm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestNilContext: a nil context is context.Background() for Trsm and
// BufferSize (issue #9): no panic, the same result.
func TestNilContext(t *testing.T) {
	var nilCtx context.Context
	v := variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	a, b := randomInput[float64](4, v, 12, 5, 3, false)
	want := testmat.Clone(b)
	if err := trsm.Trsm(context.Background(), v.side, v.uplo, v.ta, v.diag, 2, a, want, nil); err != nil {
		t.Fatal(err)
	}
	n, err := trsm.BufferSize(nilCtx, v.side, v.uplo, v.ta, v.diag, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 2, a, b, make([]float64, n)); err != nil {
		t.Fatal(err)
	}
	for i := range b.Data {
		if b.Data[i] != want.Data[i] {
			t.Fatalf("element %d: %v with a nil context, %v with Background", i, b.Data[i], want.Data[i])
		}
	}
	// The quick returns take nil too.
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 0, a, b, nil); err != nil {
		t.Fatal(err)
	}
	empty := batchlas.NewBatch[float64](4, 4, 0)
	if err := trsm.Trsm(nilCtx, v.side, v.uplo, v.ta, v.diag, 1, empty, empty, nil); err != nil {
		t.Fatal(err)
	}
}

// badPins runs f once with a bad environment pin (BATCHLAS_TRSM_ROUTE,
// re-read by sel.Reload) and once with a bad scoped pin.
func badPins(t *testing.T, f func(t *testing.T, ctx context.Context)) {
	t.Run("env", func(t *testing.T) {
		t.Cleanup(sel.Reload) // runs after t.Setenv restores the variable
		t.Setenv("BATCHLAS_TRSM_ROUTE", "nonsense")
		sel.Reload()
		f(t, context.Background())
	})
	t.Run("scoped", func(t *testing.T) {
		f(t, sel.WithPin(context.Background(), "trsm", "nonsense"))
	})
}

// TestNoKernelIgnoresPin: a call that runs no kernel (an empty B, alpha ==
// 0) makes no decision, so a bad pin is not read and the call succeeds with
// BLAS's result (issue #9); a call that runs a kernel under the same pin
// fails with a *sel.PinError.
func TestNoKernelIgnoresPin(t *testing.T) {
	badPins(t, func(t *testing.T, ctx context.Context) {
		for _, v := range []variant{{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}, {batchlas.Right, batchlas.Upper, batchlas.Trans, batchlas.Unit}} {
			a, b := randomInput[float64](5, v, 6, 4, 2, true)
			var pe *sel.PinError
			if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, nil); !errors.As(err, &pe) {
				t.Fatalf("%v: a call that runs a kernel returned %v, want a *sel.PinError", v, err)
			}
			if _, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b); !errors.As(err, &pe) {
				t.Fatalf("%v: BufferSize returned %v, want a *sel.PinError", v, err)
			}
			// alpha == 0: B = 0, in its matrices only. BufferSize does
			// not see alpha.
			x := testmat.Clone(b)
			if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 0, a, x, nil); err != nil {
				t.Fatalf("%v alpha 0: %v", v, err)
			}
			for i := 0; i < x.Count; i++ {
				if e := testmat.MaxAbs(testmat.Dense(x, i)); e != 0 {
					t.Fatalf("%v alpha 0: max |B| = %v, want 0", v, e)
				}
			}
			if !testmat.Untouched(x, x.Data, b.Data) {
				t.Fatalf("%v alpha 0: wrote outside the matrices of b", v)
			}
			for _, s := range []struct{ t, r, count int }{{4, 3, 0}, {0, 3, 2}, {4, 0, 2}} {
				m, n := s.t, s.r
				if v.side == batchlas.Right {
					m, n = n, m
				}
				a := batchlas.NewBatch[float64](s.t, s.t, s.count)
				b := batchlas.NewBatch[float64](m, n, s.count)
				if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, nil); err != nil {
					t.Errorf("%v %+v: %v", v, s, err)
				}
				if n, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b); err != nil || n != 0 {
					t.Errorf("%v %+v: BufferSize = %d, %v; want 0, nil", v, s, n, err)
				}
			}
		}
	})
}

// view is the rows x cols sub-matrix at (r0, c0) of every matrix of p.
func view(p batchlas.Batch[float64], r0, c0, rows, cols int) batchlas.Batch[float64] {
	return batchlas.Batch[float64]{Data: p.Data[c0*p.LD+r0:], Rows: rows, Cols: cols, LD: p.LD, Stride: p.Stride, Count: p.Count}
}

// TestOverlapRefused: B sharing an element with A is an ArgError naming b
// and a, from Trsm (every candidate, alpha 0 included) and BufferSize,
// before anything is written (issue #9).
func TestOverlapRefused(t *testing.T) {
	const k, r, count = 5, 3, 2
	v := variant{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}
	parent := testmat.Batch[float64](testmat.Rand(21), 12, 12, count, 0, 0)
	cases := []struct {
		name string
		a, b batchlas.Batch[float64]
	}{
		{"b is a", view(parent, 0, 0, k, k), view(parent, 0, 0, k, r)},
		{"b's first element is a's last", view(parent, 0, 0, k, k), view(parent, k-1, k-1, k, r)},
		{"b crosses a's columns", view(parent, 0, 2, k, k), view(parent, 3, 0, k, r)},
		{"broadcast a inside b's second matrix", func() batchlas.Batch[float64] {
			x := view(parent, 0, 0, k, k)
			x.Data = parent.Data[parent.Stride+1:]
			return batchlas.Broadcast(x, count)
		}(), view(parent, 0, 0, k, r)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				var ae *batchlas.ArgError
				if !errors.As(err, &ae) || ae.Op != "trsm" || ae.Arg != "b" || !strings.Contains(ae.Msg, "b and a share elements") {
					t.Fatalf("%s: got %v, want an ArgError from trsm on b naming a", what, err)
				}
			}
			before := append([]float64(nil), parent.Data...)
			for _, c := range trsm.Op.Candidates(sel.Float64) {
				ctx := sel.WithPin(context.Background(), "trsm", c.String())
				check(c.String(), trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, tc.a, tc.b, nil))
			}
			check("alpha 0", trsm.Trsm(context.Background(), v.side, v.uplo, v.ta, v.diag, 0, tc.a, tc.b, nil))
			_, err := trsm.BufferSize(context.Background(), v.side, v.uplo, v.ta, v.diag, tc.a, tc.b)
			check("BufferSize", err)
			if !sameBits(parent.Data, before) {
				t.Fatal("something was written")
			}
		})
	}
}

// TestDisjointViews: A and B as sub-matrices of one parent batch, one
// above the other in the same columns ([A; B] down each column, so their
// address ranges interleave), share no element: every candidate solves the
// system and touches nothing else of the parent. This is how potrf's
// blocked kernel calls trsm.
func TestDisjointViews(t *testing.T) {
	const k, r, count = 20, 6, 3
	for _, v := range []variant{{batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit}, {batchlas.Right, batchlas.Lower, batchlas.Trans, batchlas.NonUnit}} {
		for _, c := range trsm.Op.Candidates(sel.Float64) {
			ctx := sel.WithPin(context.Background(), "trsm", c.String())
			rnd := testmat.Rand(22)
			m, n := k, r
			if v.side == batchlas.Right {
				m, n = r, k
			}
			ld := k + m + 1
			parent := testmat.Batch[float64](rnd, ld, k, count, ld, ld*k+3)
			a := view(parent, 0, 0, k, k)
			b := view(parent, k, 0, m, n)
			testmat.Triangular(rnd, a, v.uplo)
			b0 := testmat.Clone(b)
			before := append([]float64(nil), parent.Data...)
			if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 2, a, b, nil); err != nil {
				t.Fatalf("%s %v: %v", c, v, err)
			}
			for i := 0; i < count; i++ {
				forward(t, c.String(), v, 2, a, b0, b, i)
			}
			for e := range parent.Data {
				i, col, row := e/parent.Stride, e%parent.Stride/parent.LD, e%parent.Stride%parent.LD
				inB := i < count && col < n && row >= k && row < k+m
				if !inB && parent.Data[e] != before[e] {
					t.Fatalf("%s %v: element (%d,%d) of parent %d, outside b, changed", c, v, row, col, i)
				}
			}
		}
	}
}

// TestWorkspaceOverlapRefused: a workspace that shares an element with a
// or b is an ArgError on ws, for the kernels that use one.
func TestWorkspaceOverlapRefused(t *testing.T) {
	v := variant{batchlas.Left, batchlas.Upper, batchlas.NoTrans, batchlas.NonUnit}
	checked := 0
	for _, c := range trsm.Op.Candidates(sel.Float64) {
		ctx := sel.WithPin(context.Background(), "trsm", c.String())
		a, b := randomInput[float64](23, v, 20, 5, 2, false)
		need, err := trsm.BufferSize(ctx, v.side, v.uplo, v.ta, v.diag, a, b)
		if err != nil {
			t.Fatal(err)
		}
		if need == 0 {
			continue
		}
		checked++
		for _, tc := range []struct {
			name string
			x    *batchlas.Batch[float64]
		}{{"a", &a}, {"b", &b}} {
			keep := *tc.x
			ws := make([]float64, need+len(keep.Data))
			tc.x.Data = ws[need-1:] // the last element of ws is the first of x
			copy(tc.x.Data, keep.Data)
			err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, b, ws)
			var ae *batchlas.ArgError
			if !errors.As(err, &ae) || ae.Arg != "ws" || !strings.Contains(ae.Msg, "ws and "+tc.name+" share elements") {
				t.Errorf("%s, ws meets %s: got %v, want an ArgError on ws", c, tc.name, err)
			}
			*tc.x = keep
		}
	}
	if checked == 0 {
		t.Error("no candidate uses a workspace")
	}
}
