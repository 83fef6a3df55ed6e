package getri

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// getri is timed on the factors of matgen.General matrices (well
// conditioned, pivoting at almost every step), factored once per trial by
// the getrf op and restored before every call (working copies:
// trial.InPlace), since the inverse overwrites them. getrf only makes the
// inputs (InputsBy): any correct factor times the same, so it is not part
// of getri's kernels hash (this file imports getrf; the hash leaves
// trial.go out, imports included).
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
			// the original A (for the residual), the factor's pristine
			// copy and its working copy
			return 3 * n * n * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGetriTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGetriTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type getriTrial[T batchlas.Float] struct {
	orig batchlas.Batch[T] // A before factoring
	lu   *trial.InPlace[T]
	ipiv batchlas.Vectors[int32]
	ws   trial.Workspace[T]
	// scales holds P*|L|*|U| of each checked matrix, computed on the first
	// check: it depends on the inputs only.
	scales map[int]trial.Dense
}

func newGetriTrial[T batchlas.Float](s trial.Shape, seed uint64) (*getriTrial[T], error) {
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	// The distinct matrices are factored once, then repeated as
	// TiledBatch repeats them.
	orig := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.General(r, b) })
	lu := matgen.Clone(orig)
	piv := batchlas.NewVectors[int32](n, orig.Count)
	if err := getrf.Getrf(context.Background(), lu, piv, nil); err != nil {
		return nil, fmt.Errorf("getri inputs: factoring with getrf: %w", err)
	}
	tc := &getriTrial[T]{orig: trial.Repeat(orig, count), lu: trial.NewInPlace(trial.Repeat(lu, count)), ipiv: batchlas.NewVectors[int32](n, count)}
	for i := range count {
		copy(tc.ipiv.Vector(i), piv.Vector(i%piv.Count))
	}
	return tc, nil
}

func (tc *getriTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.lu.Orig, tc.ipiv)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Getri(ctx, tc.lu.Work[j], tc.ipiv, ws)
		},
		Copies:  len(tc.lu.Work),
		Restore: tc.lu.Restore,
		Check:   tc.check,
	}, nil
}

// Output is the inverses (in the first working copy).
func (tc *getriTrial[T]) Output() batchlas.Batch[T] { return tc.lu.Work[0] }

// check: X*A = I within 16*(n+2)*eps of |X|*P*|L|*|U|, the left
// residual's bound for xGETRI's method (inv(U), then X*L = inv(U)) in any
// summation order, A being the matrix before factoring.
func (tc *getriTrial[T]) check() error {
	n := tc.orig.Rows
	tol := 16 * float64(n+2) * matgen.Eps[T]()
	if tc.scales == nil {
		tc.scales = map[int]trial.Dense{}
	}
	eye := trial.NewDense(n, n)
	for i := range n {
		eye.V[i+i*n] = 1
	}
	for _, i := range trial.CheckedMatrices(tc.lu.Orig.Count) {
		scale, ok := tc.scales[i]
		if !ok {
			var err error
			if scale, err = trial.LUScale(trial.DenseOf(tc.lu.Orig, i), tc.ipiv, i); err != nil {
				return err
			}
			tc.scales[i] = scale
		}
		x := trial.DenseOf(tc.lu.Work[0], i)
		prod := trial.Mul(x, trial.DenseOf(tc.orig, i))
		abs := trial.AbsMul(x, scale)
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: inv(A)*A vs I", i), prod, eye, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
