package trsm_test

import (
	"context"
	"errors"
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
