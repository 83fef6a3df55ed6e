package trmm

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// trmm is timed with alpha = 1 on random triangles whose other triangle
// (and, for a unit diagonal, the diagonal) is NaN, so that a kernel that
// reads it fails the check, and a random B restored before every call
// (working copies: trial.InPlace), since it is overwritten.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := s.Num("m"), s.Num("n")
			if s.Get("side") == "R" {
				m, n = n, m
			}
			return flopsPerMatrix(m, n) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := float64(s.Num("m")), float64(s.Num("n"))
			t := m
			if s.Get("side") == "R" {
				t = n
			}
			return (t*t + 2*m*n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newTrmmTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newTrmmTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type trmmTrial[T batchlas.Float] struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
	a    batchlas.Batch[T]
	b    *trial.InPlace[T]
	ws   trial.Workspace[T]
}

func newTrmmTrial[T batchlas.Float](s trial.Shape, seed uint64) (*trmmTrial[T], error) {
	side, err := trial.Letter("side", s.Get("side"), batchlas.Left, batchlas.Right)
	if err != nil {
		return nil, err
	}
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	ta, err := trial.Letter("ta", s.Get("ta"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	diag, err := trial.Letter("diag", s.Get("diag"), batchlas.NonUnit, batchlas.Unit)
	if err != nil {
		return nil, err
	}
	m, n, count := s.Num("m"), s.Num("n"), s.Num("batch")
	t := m
	if side == batchlas.Right {
		t = n
	}
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, t, t, count, func(b batchlas.Batch[T]) {
		for i := range b.Count {
			for c := range t {
				for row := range t {
					x := T(2*r.Float64() - 1)
					if !(row == c && diag == batchlas.NonUnit) && (row == c || (row > c) != (uplo == batchlas.Lower)) {
						x = T(math.NaN())
					}
					b.Set(i, row, c, x)
				}
			}
		}
	})
	bb := trial.TiledBatch[T](r, m, n, count, func(b batchlas.Batch[T]) {
		for i := range b.Count {
			for c := range n {
				for row := range m {
					b.Set(i, row, c, T(2*r.Float64()-1))
				}
			}
		}
	})
	return &trmmTrial[T]{side: side, uplo: uplo, ta: ta, diag: diag, a: a, b: trial.NewInPlace(bb)}, nil
}

func (tc *trmmTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.side, tc.uplo, tc.ta, tc.diag, tc.a, tc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Trmm(ctx, tc.side, tc.uplo, tc.ta, tc.diag, 1, tc.a, tc.b.Work[j], ws)
		},
		Copies:  len(tc.b.Work),
		Restore: tc.b.Restore,
		Check:   tc.check,
	}, nil
}

// Output is B (its first working copy).
func (tc *trmmTrial[T]) Output() batchlas.Batch[T] { return tc.b.Work[0] }

// check: B = op(A)*B0 (or B0*op(A)) within 2*(t+2)*eps of the product of
// the magnitudes, A's triangle read as the op says (the NaN half never).
func (tc *trmmTrial[T]) check() error {
	t := tc.a.Rows
	tol := 2 * float64(t+2) * matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(tc.b.Orig.Count) {
		tri := trial.DenseOf(tc.a, i)
		for c := range t {
			for row := range t {
				v := &tri.V[row+c*t]
				switch {
				case row == c && tc.diag == batchlas.Unit:
					*v = 1
				case row != c && (row > c) != (tc.uplo == batchlas.Lower):
					*v = 0
				}
			}
		}
		op := tri.Op(tc.ta == batchlas.Trans)
		b0 := trial.DenseOf(tc.b.Orig, i)
		var prod, abs trial.Dense
		if tc.side == batchlas.Left {
			prod, abs = trial.MulAbs(op, b0)
		} else {
			prod, abs = trial.MulAbs(b0, op)
		}
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: B vs op(A)*B", i), trial.DenseOf(tc.b.Work[0], i), prod, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
