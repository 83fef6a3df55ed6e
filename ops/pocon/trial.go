package pocon

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// pocon is timed on the Cholesky factors of matgen.SPD matrices, factored
// once per trial by the potrf op (which only makes the inputs: InputsBy),
// with their norms taken before. Nothing it reads is overwritten, so no
// copy is restored; rcond is poisoned with NaN before a verified call.
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
			// the original A (for the reference) and its factor
			return 2 * n * n * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newPoconTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPoconTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type poconTrial[T batchlas.Float] struct {
	uplo         batchlas.Uplo
	orig, f      batchlas.Batch[T]
	anorm, rcond []T
	ws           trial.Workspace[T]
	want         map[int]float64 // the exact rcond of each checked matrix
}

func newPoconTrial[T batchlas.Float](s trial.Shape, seed uint64) (*poconTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	orig := trial.TiledBatch[T](r, n, n, min(count, trial.DistinctMatrices), func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	f := matgen.Clone(orig)
	if err := potrf.Potrf(context.Background(), uplo, f, nil); err != nil {
		return nil, fmt.Errorf("pocon inputs: factoring with potrf: %w", err)
	}
	tc := &poconTrial[T]{uplo: uplo, orig: trial.Repeat(orig, count), f: trial.Repeat(f, count), anorm: make([]T, count), rcond: make([]T, count)}
	if err := Norm(context.Background(), uplo, tc.orig, tc.anorm); err != nil {
		return nil, err
	}
	return tc, nil
}

func (tc *poconTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.uplo, tc.f, tc.anorm, tc.rcond)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call:   func(ctx context.Context, _ int) error { return Pocon(ctx, tc.uplo, tc.f, tc.anorm, tc.rcond, ws) },
		Copies: 1,
		Poison: func() {
			for i := range tc.rcond {
				tc.rcond[i] = T(math.NaN())
			}
		},
		Check: tc.check,
	}, nil
}

// Output is rcond, one value per matrix.
func (tc *poconTrial[T]) Output() batchlas.Batch[T] {
	b, _ := batchlas.WrapBatch(tc.rcond, 1, 1, len(tc.rcond))
	return b
}

// check: each checked rcond is no smaller than the exact one (the estimate
// of ||A^-1|| is a lower bound; 1% for the solves' rounding) and no more
// than trial.RcondSlack times larger. matgen.SPD fills both triangles, so the reference
// reads the whole matrix.
func (tc *poconTrial[T]) check() error {
	if tc.want == nil {
		tc.want = map[int]float64{}
	}
	for _, i := range trial.CheckedMatrices(len(tc.rcond)) {
		want, ok := tc.want[i]
		if !ok {
			inv, err := trial.InverseNorm(trial.DenseOf(tc.orig, i), false)
			if err != nil {
				return err
			}
			want = 1 / (float64(tc.anorm[i]) * inv)
			tc.want[i] = want
		}
		if err := trial.CheckRcond(fmt.Sprintf("matrix %d", i), float64(tc.rcond[i]), want, 0.01, trial.RcondSlack); err != nil {
			return err
		}
	}
	return nil
}

// Slack: rcond is an estimate (trial.Estimated).
func (tc *poconTrial[T]) Slack() float64 { return trial.RcondSlack }
