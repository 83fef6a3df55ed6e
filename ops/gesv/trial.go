package gesv

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// gesv is timed on matgen.General matrices (well conditioned, pivoting at
// almost every step) and a random B, both overwritten (A by its factor, B
// by X), so both are restored before every call, in working copies made
// in pairs. Its nested kernel calls getrf and getrs (and through them trsm
// and gemm), so all their sources are part of gesv's kernels.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			return (2*n*n*n/3 + 2*n*n*float64(s.Num("nrhs"))) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			// A and B, and their pristine copies
			return (2*n*n + 2*n*nrhs) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGesvTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGesvTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type gesvTrial[T batchlas.Float] struct {
	a, b *trial.InPlace[T]
	ipiv batchlas.Vectors[int32]
	ws   trial.Workspace[T]
}

func newGesvTrial[T batchlas.Float](s trial.Shape, seed uint64) (*gesvTrial[T], error) {
	n, nrhs, count := s.Num("n"), s.Num("nrhs"), s.Num("batch")
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.General(r, b) })
	b := trial.TiledBatch[T](r, n, nrhs, count, nil)
	// As many pairs of working copies as fit in the copies' budget
	// together, so that call j finds both its A and its B fresh.
	k := trial.CopiesOf[T](len(a.Data) + len(b.Data))
	return &gesvTrial[T]{a: trial.InPlaceCopies(a, k), b: trial.InPlaceCopies(b, k), ipiv: batchlas.NewVectors[int32](n, count)}, nil
}

func (tc *gesvTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.a.Orig, tc.ipiv, tc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Gesv(ctx, tc.a.Work[j], tc.ipiv, tc.b.Work[j], ws)
		},
		Copies: len(tc.a.Work),
		Restore: func(k int) {
			tc.a.Restore(k)
			tc.b.Restore(k)
		},
		Poison: func() {
			for j := range tc.ipiv.Data {
				tc.ipiv.Data[j] = -1
			}
		},
		Check: tc.check,
	}, nil
}

// Output is X (in B's first working copy); the factor is checked through
// it.
func (tc *gesvTrial[T]) Output() batchlas.Batch[T] { return tc.b.Work[0] }

// check: valid pivots, and A*X = B within 8*(n+2)*eps of P*|L|*|U|*|X|
// (the factor and pivots gesv wrote), the backward-error bound of LU with
// partial pivoting followed by the solve.
func (tc *gesvTrial[T]) check() error {
	n := tc.a.Orig.Rows
	tol := 8 * float64(n+2) * matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(tc.a.Orig.Count) {
		scale, err := trial.LUScale(trial.DenseOf(tc.a.Work[0], i), tc.ipiv, i)
		if err != nil {
			return err
		}
		x, b := trial.DenseOf(tc.b.Work[0], i), trial.DenseOf(tc.b.Orig, i)
		prod := trial.Mul(trial.DenseOf(tc.a.Orig, i), x)
		abs := trial.AbsMul(scale, x)
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: A*X vs B", i), prod, b, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
