package gemm

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// gemm is timed as C = op(A)*op(B) (alpha 1, beta 0), the common use: C is
// then write-only, so repeated calls need no restore between them.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return 2 * float64(s.Num("m")) * float64(s.Num("n")) * float64(s.Num("k")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n, kk := float64(s.Num("m")), float64(s.Num("n")), float64(s.Num("k"))
			return (m*kk + kk*n + m*n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGemmTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGemmTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type gemmTrial[T batchlas.Float] struct {
	ta, tb  batchlas.Transpose
	a, b, c batchlas.Batch[T]
	// refs caches the reference product and its error scale per checked
	// matrix: the inputs are the same for every candidate.
	refs map[int][2]trial.Dense
	ws   trial.Workspace[T]
}

func newGemmTrial[T batchlas.Float](s trial.Shape, seed uint64) (*gemmTrial[T], error) {
	ta, err := trial.Letter("ta", s.Get("ta"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	tb, err := trial.Letter("tb", s.Get("tb"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	m, n, k, count := s.Num("m"), s.Num("n"), s.Num("k"), s.Num("batch")
	r := matgen.Rand(seed)
	ar, ac := m, k
	if ta == batchlas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tb == batchlas.Trans {
		br, bc = n, k
	}
	return &gemmTrial[T]{
		ta: ta, tb: tb,
		a:    trial.TiledBatch[T](r, ar, ac, count, nil),
		b:    trial.TiledBatch[T](r, br, bc, count, nil),
		c:    trial.NewLaidBatch[T](m, n, count),
		refs: map[int][2]trial.Dense{},
	}, nil
}

func (g *gemmTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, g.ta, g.tb, g.a, g.b, g.c)
	if err != nil {
		return nil, err
	}
	ws := g.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, _ int) error {
			return Gemm(ctx, g.ta, g.tb, 1, g.a, g.b, 0, g.c, ws)
		},
		Poison: func() {
			for i := range g.c.Data {
				g.c.Data[i] = T(math.NaN())
			}
		},
		Copies: 1,
		Check:  g.check,
	}, nil
}

// Output is C.
func (g *gemmTrial[T]) Output() batchlas.Batch[T] { return g.c }

// check: C_i = op(A_i)*op(B_i) within 4*(k+2)*eps of |op(A_i)|*|op(B_i)|.
func (g *gemmTrial[T]) check() error {
	k := g.a.Cols
	if g.ta == batchlas.Trans {
		k = g.a.Rows
	}
	tol := 4 * float64(k+2) * matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(g.c.Count) {
		ref, ok := g.refs[i]
		if !ok {
			want, scale := trial.MulAbs(trial.DenseOf(g.a, i).Op(g.ta == batchlas.Trans), trial.DenseOf(g.b, i).Op(g.tb == batchlas.Trans))
			ref = [2]trial.Dense{want, scale}
			g.refs[i] = ref
		}
		want, scale := ref[0], ref[1]
		if err := trial.WithinBound(fmt.Sprintf("matrix %d", i), trial.DenseOf(g.c, i), want, scale, tol); err != nil {
			return err
		}
	}
	return nil
}
