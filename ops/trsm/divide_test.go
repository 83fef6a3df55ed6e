package trsm_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestSubnormalDiagonal: for side Left, a nonzero diagonal entry below
// the smallest normal number is divided by, as BLAS does, under every
// candidate and variant (the kernels that multiply by reciprocals used to turn X = 1
// into Inf, or NaN where that Inf met a zero): A is the identity with
// A[k,k] = tiny and B ones with row k scaled by tiny, so X is all ones up to the rounding of subnormal
// products. Its neighbours in the batch, plain identities, are solved as
// before (X = B exactly).
func TestSubnormalDiagonal(t *testing.T) {
	testSubnormalDiagonal[float32](t, sel.Float32, 1e-40)
	testSubnormalDiagonal[float64](t, sel.Float64, 1e-310)
}

func testSubnormalDiagonal[T batchlas.Float](t *testing.T, dt sel.DType, tiny float64) {
	for _, v := range allVariants() {
		if v.diag == batchlas.Unit || v.side == batchlas.Right {
			continue // BLAS multiplies by the reciprocal for side Right
		}
		for _, order := range []int{1, 2, 3, 4, 5, 8, 9, 16, 17, 33} {
			for _, k := range []int{0, order - 1} {
				m, n := order, 3
				a := batchlas.NewBatch[T](order, order, 3)
				b := batchlas.NewBatch[T](m, n, 3)
				for i := range 3 {
					for j := range order {
						a.Set(i, j, j, 1)
					}
					for c := range n {
						for r := range m {
							b.Set(i, r, c, 1)
						}
					}
				}
				a.Set(1, k, k, T(tiny))
				for j := range 3 {
					b.Set(1, k, j, T(tiny))
				}
				key := sel.MakeKey(sel.Str(v.side.String()), sel.Str(v.uplo.String()), sel.Str(v.ta.String()), sel.Str(v.diag.String()), sel.Int(m), sel.Int(n), sel.Int(3))
				for _, c := range trsm.Op.Candidates(dt) {
					if !trsm.Op.CanRun(c, key, batchlas.Host()) {
						continue
					}
					x := batchlas.Batch[T]{Data: append([]T(nil), b.Data...), Rows: m, Cols: n, LD: b.LD, Stride: b.Stride, Count: 3}
					ctx := sel.WithPin(context.Background(), "trsm", c.String())
					if err := trsm.Trsm(ctx, v.side, v.uplo, v.ta, v.diag, 1, a, x, nil); err != nil {
						t.Fatalf("%s %s %v order %d: %v", dt, c, v, order, err)
					}
					for i := range 3 {
						for col := range n {
							for r := range m {
								got := float64(x.At(i, r, col))
								if i != 1 && got != 1 || !(math.Abs(got-1) < 1e-3) {
									t.Fatalf("%s %s %v order %d, tiny at %d: X(%d,%d) of matrix %d = %v, want 1", dt, c, v, order, k, r, col, i, got)
								}
							}
						}
					}
				}
			}
		}
	}
}
