package syrk

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// syrk is timed as the Gram matrix C = A*A^T (or A^T*A), alpha = 1 and
// beta = 0, on random A with entries uniform in [-1, 1), which it only
// reads. C's uplo triangle is poisoned with NaN before a verified call
// (beta = 0 must not read it) and its other triangle holds a pattern the
// check finds unchanged.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return flopsPerMatrix(s.Num("n"), s.Num("k")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, kk := float64(s.Num("n")), float64(s.Num("k"))
			return (n*kk + n*n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newSyrkTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newSyrkTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type syrkTrial[T batchlas.Float] struct {
	uplo  batchlas.Uplo
	trans batchlas.Transpose
	a, c  batchlas.Batch[T]
	ws    trial.Workspace[T]
}

// otherTriangle is the value syrk must leave in C's other triangle.
const otherTriangle = 7

func newSyrkTrial[T batchlas.Float](s trial.Shape, seed uint64) (*syrkTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	trans, err := trial.Letter("trans", s.Get("trans"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	n, k, count := s.Num("n"), s.Num("k"), s.Num("batch")
	rows, cols := n, k
	if trans == batchlas.Trans {
		rows, cols = k, n
	}
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, rows, cols, count, func(b batchlas.Batch[T]) {
		for i := range b.Count {
			for col := range cols {
				for row := range rows {
					b.Set(i, row, col, T(2*r.Float64()-1))
				}
			}
		}
	})
	c := batchlas.NewBatch[T](n, n, count)
	for i := range c.Data {
		c.Data[i] = otherTriangle
	}
	return &syrkTrial[T]{uplo: uplo, trans: trans, a: a, c: c}, nil
}

func (tc *syrkTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.uplo, tc.trans, tc.a, tc.c)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call:   func(ctx context.Context, _ int) error { return Syrk(ctx, tc.uplo, tc.trans, 1, tc.a, 0, tc.c, ws) },
		Copies: 1,
		Poison: tc.poison,
		Check:  tc.check,
	}, nil
}

// poison fills the uplo triangle of every C_i with NaN.
func (tc *syrkTrial[T]) poison() {
	n := tc.c.Rows
	for i := range tc.c.Count {
		for col := range n {
			for row := range n {
				if tc.inTriangle(row, col) {
					tc.c.Set(i, row, col, T(math.NaN()))
				}
			}
		}
	}
}

func (tc *syrkTrial[T]) inTriangle(row, col int) bool {
	if tc.uplo == batchlas.Lower {
		return row >= col
	}
	return row <= col
}

// Output is C.
func (tc *syrkTrial[T]) Output() batchlas.Batch[T] { return tc.c }

// check: the uplo triangle of C is op(A)*op(A)^T within 2*(k+2)*eps of
// |op(A)|*|op(A)|^T (a product's bound in any summation order), and the
// other triangle holds its pattern.
func (tc *syrkTrial[T]) check() error {
	n := tc.c.Rows
	trans := tc.trans == batchlas.Trans
	k := tc.a.Cols
	if trans {
		k = tc.a.Rows
	}
	tol := 2 * float64(k+2) * matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(tc.c.Count) {
		a := trial.DenseOf(tc.a, i)
		at := a.Op(!trans)
		prod, abs := trial.MulAbs(a.Op(trans), at)
		got := trial.DenseOf(tc.c, i)
		for col := range n {
			for row := range n {
				x := got.V[row+col*n]
				if !tc.inTriangle(row, col) {
					if x != otherTriangle {
						return fmt.Errorf("matrix %d: C(%d,%d) = %v outside the %s triangle was written", i, row, col, x, tc.uplo)
					}
					// Compare only the triangle: the reference's other
					// half is set to what C holds there.
					prod.V[row+col*n], abs.V[row+col*n] = x, 0
				}
			}
		}
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: C vs op(A)*op(A)^T", i), got, prod, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
