package gels

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// gels is timed on random m x n matrices (uniform entries: full column
// rank with probability 1, well conditioned for m well above n) and random
// right-hand sides; A and B are both overwritten, so both are restored
// before every call, with as many working copies of each (trial.CopiesOf
// of both together). Cells with m < n are no call of gels (Problem).
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			p := problem{m: s.Num("m"), n: s.Num("n"), nrhs: s.Num("nrhs")}
			return flopsPerMatrix(&p) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n, nrhs := float64(s.Num("m")), float64(s.Num("n")), float64(s.Num("nrhs"))
			// A and B, their pristine copies
			return 2 * (m*n + m*nrhs) * float64(s.Num("batch"))
		},
		Problem: func(k sel.Key) error {
			s := trial.ShapeOf(Op, k)
			if m, n := s.Num("m"), s.Num("n"); m < n {
				return fmt.Errorf("m %d < n %d: gels needs m >= n", m, n)
			}
			return nil
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGelsTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGelsTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type gelsTrial[T batchlas.Float] struct {
	a, b *trial.InPlace[T]
	ws   trial.Workspace[T]
}

func newGelsTrial[T batchlas.Float](s trial.Shape, seed uint64) (*gelsTrial[T], error) {
	m, n, nrhs, count := s.Num("m"), s.Num("n"), s.Num("nrhs"), s.Num("batch")
	if m < n {
		return nil, fmt.Errorf("gels cell %s: m < n is no call of gels", s)
	}
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, m, n, count, nil)
	b := trial.TiledBatch[T](r, m, nrhs, count, nil)
	k := trial.CopiesOf[T](len(a.Data) + len(b.Data))
	return &gelsTrial[T]{a: trial.InPlaceCopies(a, k), b: trial.InPlaceCopies(b, k)}, nil
}

func (tc *gelsTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.a.Orig, tc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call:   func(ctx context.Context, j int) error { return Gels(ctx, tc.a.Work[j], tc.b.Work[j], ws) },
		Copies: len(tc.a.Work),
		Restore: func(k int) {
			tc.a.Restore(k)
			tc.b.Restore(k)
		},
		Check: tc.check,
	}, nil
}

// Output is X, the first n rows of B's first working copy.
func (tc *gelsTrial[T]) Output() batchlas.Batch[T] {
	x := tc.b.Work[0]
	x.Rows = tc.a.Orig.Cols
	return x
}

// check: X solves the normal equations, ||A^T*(A*X - B)||_max within
// 64*max(m,n)*eps of ||A||_F*(||A||_F*||X||_F + ||B||_F), the size of
// what a backward-stable least-squares solve leaves, A and B being the
// pristine inputs (float64 arithmetic).
func (tc *gelsTrial[T]) check() error {
	a0, b0 := tc.a.Orig, tc.b.Orig
	m, n, nrhs := a0.Rows, a0.Cols, b0.Cols
	tol := 64 * float64(max(m, n)) * matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(a0.Count) {
		a, b := trial.DenseOf(a0, i), trial.DenseOf(b0, i)
		xb := trial.DenseOf(tc.b.Work[0], i)
		x := trial.NewDense(n, nrhs)
		for c := range nrhs {
			for r := range n {
				x.V[r+c*n] = xb.At(r, c)
			}
		}
		ax := trial.Mul(a, x)
		res := trial.NewDense(m, nrhs)
		for k := range res.V {
			res.V[k] = ax.V[k] - b.V[k]
		}
		g := trial.Mul(a.Op(true), res)
		scale := frob(a) * (frob(a)*frob(x) + frob(b))
		for _, v := range g.V {
			if !(math.Abs(v) <= tol*scale) {
				return fmt.Errorf("matrix %d: |A^T*(A*X - B)| = %g > %g (64*max(m,n)*eps times ||A||(||A|| ||X|| + ||B||))", i, math.Abs(v), tol*scale)
			}
		}
	}
	return nil
}

func frob(d trial.Dense) float64 {
	var s float64
	for _, v := range d.V {
		s += v * v
	}
	return math.Sqrt(s)
}
