package trsm

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// trsm is timed with alpha 1 on well-conditioned triangles
// (matgen.Triangular: the other triangle holds garbage a kernel must not
// read). B is overwritten by X, so it is restored before every call
// (working copies: trial.InPlace). Its blocked kernel updates through
// gemm's entry point, so gemm's sources are part of trsm's kernels.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := float64(s.Num("m")), float64(s.Num("n"))
			if s.Get("side") == "R" {
				return m * n * n * float64(s.Num("batch"))
			}
			return m * m * n * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n, t := float64(s.Num("m")), float64(s.Num("n")), float64(trialOrder(s))
			// A, B and B's pristine copy
			return (t*t + 2*m*n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newTrsmTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newTrsmTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

// trialOrder is the order of the triangle of a trsm shape: m for side
// Left, n for Right.
func trialOrder(s trial.Shape) int {
	if s.Get("side") == "R" {
		return s.Num("n")
	}
	return s.Num("m")
}

type trsmTrial[T batchlas.Float] struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
	a    batchlas.Batch[T]
	b    *trial.InPlace[T]
	ws   trial.Workspace[T]
}

func newTrsmTrial[T batchlas.Float](s trial.Shape, seed uint64) (*trsmTrial[T], error) {
	tc := &trsmTrial[T]{}
	var err error
	if tc.side, err = trial.Letter("side", s.Get("side"), batchlas.Left, batchlas.Right); err != nil {
		return nil, err
	}
	if tc.uplo, err = trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper); err != nil {
		return nil, err
	}
	if tc.ta, err = trial.Letter("ta", s.Get("ta"), batchlas.NoTrans, batchlas.Trans); err != nil {
		return nil, err
	}
	if tc.diag, err = trial.Letter("diag", s.Get("diag"), batchlas.NonUnit, batchlas.Unit); err != nil {
		return nil, err
	}
	m, n, count := s.Num("m"), s.Num("n"), s.Num("batch")
	t := m
	if tc.side == batchlas.Right {
		t = n
	}
	r := matgen.Rand(seed)
	tc.a = trial.TiledBatch[T](r, t, t, count, func(b batchlas.Batch[T]) { matgen.Triangular(r, b, tc.uplo) })
	tc.b = trial.NewInPlace(trial.TiledBatch[T](r, m, n, count, nil))
	return tc, nil
}

func (tc *trsmTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.side, tc.uplo, tc.ta, tc.diag, tc.a, tc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Trsm(ctx, tc.side, tc.uplo, tc.ta, tc.diag, 1, tc.a, tc.b.Work[j], ws)
		},
		Copies:  len(tc.b.Work),
		Restore: tc.b.Restore,
		Check:   tc.check,
	}, nil
}

// Output is X (in B's first working copy).
func (tc *trsmTrial[T]) Output() batchlas.Batch[T] { return tc.b.Work[0] }

// triangle returns matrix i of A as the dense triangle the solve uses: the
// uplo triangle, with ones on the diagonal when diag is Unit.
func (tc *trsmTrial[T]) triangle(i int) trial.Dense {
	a := trial.DenseOf(tc.a, i)
	t := trial.NewDense(a.R, a.C)
	for j := 0; j < a.C; j++ {
		for r := 0; r < a.R; r++ {
			switch {
			case r == j && tc.diag == batchlas.Unit:
				t.V[r+j*a.R] = 1
			case r == j || (tc.uplo == batchlas.Lower && r > j) || (tc.uplo == batchlas.Upper && r < j):
				t.V[r+j*a.R] = a.At(r, j)
			}
		}
	}
	return t
}

// check: op(A)*X = B (Left) or X*op(A) = B (Right) within 4*(t+2)*eps of
// |op(A)|*|X| (or |X|*|op(A)|), the backward-error bound of substitution.
func (tc *trsmTrial[T]) check() error {
	for _, i := range trial.CheckedMatrices(tc.b.Orig.Count) {
		opA := tc.triangle(i).Op(tc.ta == batchlas.Trans)
		x, b := trial.DenseOf(tc.b.Work[0], i), trial.DenseOf(tc.b.Orig, i)
		tol := 4 * float64(opA.R+2) * matgen.Eps[T]()
		var prod, abs trial.Dense
		if tc.side == batchlas.Left {
			prod, abs = trial.MulAbs(opA, x)
		} else {
			prod, abs = trial.MulAbs(x, opA)
		}
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: op(A)*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
