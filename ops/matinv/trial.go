package matinv

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// matinv is timed on matgen.General matrices (well conditioned, pivoting
// at almost every step); A is only read and X only written, so nothing is
// restored between calls. The check needs an LU factor of each checked
// matrix, made once per trial by the getrf op (InputsBy: it only makes
// the check's scale, so it is not part of matinv's kernels hash through
// this file; chain.go imports getrf and getri, which are).
func init() {
	Op.SetMeasure(sel.Measure{
		InputsBy: []string{"getrf"},
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return flopsPerMatrix(s.Num("n")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			// A and X
			return 2 * n * n * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newMatinvTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newMatinvTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type matinvTrial[T batchlas.Float] struct {
	a, x batchlas.Batch[T]
	lu   batchlas.Batch[T] // getrf's factor of the distinct matrices
	ipiv batchlas.Vectors[int32]
	ws   trial.Workspace[T]
}

func newMatinvTrial[T batchlas.Float](s trial.Shape, seed uint64) (*matinvTrial[T], error) {
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	distinct := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.General(r, b) })
	lu := matgen.Clone(distinct)
	ipiv := batchlas.NewVectors[int32](n, lu.Count)
	if err := getrf.Getrf(context.Background(), lu, ipiv, nil); err != nil {
		return nil, fmt.Errorf("matinv check: factoring with getrf: %w", err)
	}
	a := trial.Repeat(distinct, count)
	return &matinvTrial[T]{a: a, x: trial.NewLaidBatch[T](n, n, count), lu: lu, ipiv: ipiv}, nil
}

func (tc *matinvTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.a, tc.x)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, _ int) error {
			return Matinv(ctx, tc.a, tc.x, ws)
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
func (tc *matinvTrial[T]) Output() batchlas.Batch[T] { return tc.x }

// check: A*X = I within 16*(n+2)*eps of P*|L|*|U|*|X| (the bound of the
// solve of A X = I after LU with partial pivoting: lanes), or X*A = I
// within as much of |X|*P*|L|*|U| (the bound of xGETRI's method, inv(U)
// then X*L = inv(U): chain), L and U getrf's factor of A.
func (tc *matinvTrial[T]) check() error {
	n := tc.a.Rows
	tol := 16 * float64(n+2) * matgen.Eps[T]()
	eye := trial.NewDense(n, n)
	for i := range n {
		eye.V[i+i*n] = 1
	}
	for _, i := range trial.CheckedMatrices(tc.a.Count) {
		d := i % tc.lu.Count // the distinct matrix it repeats
		scale, err := trial.LUScale(trial.DenseOf(tc.lu, d), tc.ipiv, d)
		if err != nil {
			return err
		}
		a, x := trial.DenseOf(tc.a, i), trial.DenseOf(tc.x, i)
		right := trial.Mul(a, x)
		rightAbs := trial.AbsMul(scale, x)
		errRight := trial.WithinBound(fmt.Sprintf("matrix %d: A*X vs I", i), right, eye, rightAbs, tol)
		if errRight == nil {
			continue
		}
		left := trial.Mul(x, a)
		leftAbs := trial.AbsMul(x, scale)
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: X*A vs I", i), left, eye, leftAbs, tol); err != nil {
			return fmt.Errorf("%w; %w", errRight, err)
		}
	}
	return nil
}
