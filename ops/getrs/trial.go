package getrs

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// getrs is timed on the factors of matgen.General matrices (well
// conditioned, pivoting at almost every step), factored once per trial by
// the getrf op, with a random B restored before every call (working
// copies: trial.InPlace) because it is overwritten by X. Its nested kernel
// calls trsm (and through it gemm), so their sources are part of getrs's
// kernels; getrf only makes the inputs (InputsBy), so it is measured
// first but is not part of the hash: any correct factor times the same.
// (This file imports getrf; the kernels hash leaves trial.go out, imports
// included.)
func init() {
	Op.SetMeasure(sel.Measure{
		InputsBy: []string{"getrf"},
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			return 2 * n * n * float64(s.Num("nrhs")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			// the original A (for the residual), its factor, B and B's
			// pristine copy
			return (2*n*n + 2*n*nrhs) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGetrsTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGetrsTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type getrsTrial[T batchlas.Float] struct {
	trans batchlas.Transpose
	orig  batchlas.Batch[T] // A before factoring
	lu    batchlas.Batch[T]
	ipiv  batchlas.Vectors[int32]
	b     *trial.InPlace[T]
	ws    trial.Workspace[T]
	// scales holds P*|L|*|U| of each checked matrix, computed on the first
	// check: it depends on the inputs only, and every candidate's check
	// needs it (recomputing it was most of a tuning run's time for getrs).
	scales map[int]trial.Dense
}

func newGetrsTrial[T batchlas.Float](s trial.Shape, seed uint64) (*getrsTrial[T], error) {
	trans, err := trial.Letter("trans", s.Get("trans"), batchlas.NoTrans, batchlas.Trans)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := s.Num("n"), s.Num("nrhs"), s.Num("batch")
	r := matgen.Rand(seed)
	// The distinct matrices are factored once, then repeated as
	// TiledBatch repeats them: factoring 1024 copies of seven matrices
	// would cost more than timing the solves.
	orig := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.General(r, b) })
	lu := matgen.Clone(orig)
	piv := batchlas.NewVectors[int32](n, orig.Count)
	if err := getrf.Getrf(context.Background(), lu, piv, nil); err != nil {
		return nil, fmt.Errorf("getrs inputs: factoring with getrf: %w", err)
	}
	tc := &getrsTrial[T]{trans: trans, orig: trial.Repeat(orig, count), lu: trial.Repeat(lu, count), ipiv: batchlas.NewVectors[int32](n, count)}
	for i := range count {
		copy(tc.ipiv.Vector(i), piv.Vector(i%piv.Count))
	}
	tc.b = trial.NewInPlace(trial.TiledBatch[T](r, n, nrhs, count, nil))
	return tc, nil
}

func (tc *getrsTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.trans, tc.lu, tc.ipiv, tc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Getrs(ctx, tc.trans, tc.lu, tc.ipiv, tc.b.Work[j], ws)
		},
		Copies:  len(tc.b.Work),
		Restore: tc.b.Restore,
		Check:   tc.check,
	}, nil
}

// Output is X (in B's first working copy).
func (tc *getrsTrial[T]) Output() batchlas.Batch[T] { return tc.b.Work[0] }

// check: op(A)*X = B within 8*(n+2)*eps of op(P*|L|*|U|)*|X|, the
// backward-error bound of an LU solve (the factorisation's error and the
// two triangular solves') in any summation order, A being the matrix
// before factoring.
func (tc *getrsTrial[T]) check() error {
	n := tc.orig.Rows
	tol := 8 * float64(n+2) * matgen.Eps[T]()
	if tc.scales == nil {
		tc.scales = map[int]trial.Dense{}
	}
	for _, i := range trial.CheckedMatrices(tc.b.Orig.Count) {
		scale, ok := tc.scales[i]
		if !ok {
			var err error
			if scale, err = trial.LUScale(trial.DenseOf(tc.lu, i), tc.ipiv, i); err != nil {
				return err
			}
			tc.scales[i] = scale
		}
		x, b := trial.DenseOf(tc.b.Work[0], i), trial.DenseOf(tc.b.Orig, i)
		trans := tc.trans == batchlas.Trans
		prod := trial.Mul(trial.DenseOf(tc.orig, i).Op(trans), x)
		abs := trial.AbsMul(scale.Op(trans), x)
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: op(A)*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
