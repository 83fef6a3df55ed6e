package potri

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// potri is timed on the Cholesky factors of matgen.SPD matrices, factored
// once per trial by the potrf op and restored before every call (working
// copies: trial.InPlace), since the inverse overwrites them. potrf only
// makes the inputs (InputsBy): it is not part of potri's kernels hash.
func init() {
	Op.SetMeasure(sel.Measure{
		InputsBy: []string{"potrf"},
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
				return newPotriTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPotriTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type potriTrial[T batchlas.Float] struct {
	uplo batchlas.Uplo
	orig batchlas.Batch[T]
	f    *trial.InPlace[T]
}

func newPotriTrial[T batchlas.Float](s trial.Shape, seed uint64) (*potriTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	orig := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	f := matgen.Clone(orig)
	if err := potrf.Potrf(context.Background(), uplo, f, nil); err != nil {
		return nil, fmt.Errorf("potri inputs: factoring with potrf: %w", err)
	}
	return &potriTrial[T]{uplo: uplo, orig: trial.Repeat(orig, count), f: trial.NewInPlace(trial.Repeat(f, count))}, nil
}

// Bind refuses a pinned kernel that cannot run the call (lanes past its
// order), as the other ops' BufferSize does: potri has none, so it asks
// the decision itself.
func (tc *potriTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	w := tc.f.Work[0]
	if _, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(tc.uplo, w), opkit.DeviceFrom(ctx)); err != nil {
		return nil, err
	}
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Potri(ctx, tc.uplo, tc.f.Work[j]) },
		Copies:  len(tc.f.Work),
		Restore: tc.f.Restore,
		Check:   tc.check,
	}, nil
}

// Output is the inverses' triangles (in the first working copy).
func (tc *potriTrial[T]) Output() batchlas.Batch[T] { return tc.f.Work[0] }

// check: X*A = I within 16*(n+2)*cond-free bound |X|*|A|, X the symmetric
// matrix whose uplo triangle potri wrote (A is well conditioned: matgen's
// SPD matrices), and the other triangle of the output unchanged.
func (tc *potriTrial[T]) check() error {
	n := tc.orig.Rows
	tol := 16 * float64(n+2) * matgen.Eps[T]()
	eye := trial.NewDense(n, n)
	for i := range n {
		eye.V[i+i*n] = 1
	}
	lower := tc.uplo == batchlas.Lower
	for _, i := range trial.CheckedMatrices(tc.f.Orig.Count) {
		got, before := trial.DenseOf(tc.f.Work[0], i), trial.DenseOf(tc.f.Orig, i)
		x := trial.NewDense(n, n)
		for c := range n {
			for r := range n {
				in := r == c || (r > c) == lower
				if !in {
					if got.V[r+c*n] != before.V[r+c*n] {
						return fmt.Errorf("matrix %d: (%d,%d) outside the %s triangle was written", i, r, c, tc.uplo)
					}
					// The symmetric partner from the triangle.
					x.V[r+c*n] = got.V[c+r*n]
					continue
				}
				x.V[r+c*n] = got.V[r+c*n]
			}
		}
		prod, abs := trial.MulAbs(x, trial.DenseOf(tc.orig, i))
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: inv(A)*A vs I", i), prod, eye, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
