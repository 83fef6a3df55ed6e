package poinv

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// poinv is timed on matgen.SPD matrices (well conditioned); A is only
// read and X only written, so nothing is restored between calls. The
// triangle of A poinv does not read is NaN, as a caller may leave it.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return flopsPerMatrix(s.Num("n")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			// A (with its full symmetric copy for the check) and X
			return 3 * n * n * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newPoinvTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPoinvTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type poinvTrial[T batchlas.Float] struct {
	uplo batchlas.Uplo
	full batchlas.Batch[T] // the symmetric matrices
	a, x batchlas.Batch[T] // a: their uplo triangle, NaN elsewhere
	ws   trial.Workspace[T]
}

func newPoinvTrial[T batchlas.Float](s trial.Shape, seed uint64) (*poinvTrial[T], error) {
	n, count := s.Num("n"), s.Num("batch")
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	r := matgen.Rand(seed)
	distinct := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	full := trial.Repeat(distinct, count)
	a := matgen.Clone(full)
	for i := range count {
		for c := range n {
			for row := range n {
				if row != c && (row > c) != (uplo == batchlas.Lower) {
					a.Set(i, row, c, T(math.NaN()))
				}
			}
		}
	}
	return &poinvTrial[T]{uplo: uplo, full: full, a: a, x: trial.NewLaidBatch[T](n, n, count)}, nil
}

func (tc *poinvTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.uplo, tc.a, tc.x)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, _ int) error {
			return Poinv(ctx, tc.uplo, tc.a, tc.x, ws)
		},
		Copies: 1,
		Poison: func() {
			for i := range tc.x.Data {
				tc.x.Data[i] = T(math.NaN())
			}
		},
		Check: tc.check,
	}, nil
}

// Output is X.
func (tc *poinvTrial[T]) Output() batchlas.Batch[T] { return tc.x }

// check: X symmetric, and X*A = I within 16*(n+2)*eps of |X|*|A|, potri's
// bound (Cholesky's backward error is bounded by |A| itself).
func (tc *poinvTrial[T]) check() error {
	n := tc.a.Rows
	tol := 16 * float64(n+2) * matgen.Eps[T]()
	eye := trial.NewDense(n, n)
	for i := range n {
		eye.V[i+i*n] = 1
	}
	for _, i := range trial.CheckedMatrices(tc.a.Count) {
		x := trial.DenseOf(tc.x, i)
		for c := range n {
			for r := range c {
				if x.V[r+c*n] != x.V[c+r*n] {
					return fmt.Errorf("matrix %d: X(%d,%d) = %g but X(%d,%d) = %g: the inverse is not symmetric", i, r, c, x.V[r+c*n], c, r, x.V[c+r*n])
				}
			}
		}
		prod, abs := trial.MulAbs(x, trial.DenseOf(tc.full, i))
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: X*A vs I", i), prod, eye, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
