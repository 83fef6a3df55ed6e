package potrs

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/ops/potrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// potrs is timed on the factors of SPD matrices (matgen.SPD, factored
// once by the potrf op when the trial is made, untimed) and random
// right-hand sides; B is overwritten by X, so it is restored before every
// call (working copies: trial.InPlace). Its nested kernel calls trsm
// through its entry point, whose blocked kernel calls gemm, so their
// sources are part of potrs's kernels, as is the per-matrix code it
// shares with posv.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			return 2 * n * n * nrhs * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			// the factors, B and B's pristine copy
			return (n*n + 2*n*nrhs) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newPotrsTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPotrsTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type potrsTrial[T batchlas.Float] struct {
	uplo batchlas.Uplo
	spd  batchlas.Batch[T] // the distinct SPD matrices: matrix i of a is factored from spd's i%spd.Count
	a    batchlas.Batch[T] // their factors, tiled over the batch
	b    *trial.InPlace[T]
	ws   trial.Workspace[T]
}

func newPotrsTrial[T batchlas.Float](s trial.Shape, seed uint64) (*potrsTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := s.Num("n"), s.Num("nrhs"), s.Num("batch")
	r := matgen.Rand(seed)
	pc := &potrsTrial[T]{uplo: uplo}
	var ferr error
	pc.a = trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) {
		matgen.SPD(r, b)
		pc.spd = matgen.Clone(b)
		ferr = potrf.Potrf(context.Background(), uplo, b, nil)
	})
	if ferr != nil {
		return nil, fmt.Errorf("potrs cell %s: factoring its inputs: %w", s, ferr)
	}
	pc.b = trial.NewInPlace(trial.TiledBatch[T](r, n, nrhs, count, nil))
	return pc, nil
}

func (pc *potrsTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, pc.uplo, pc.a, pc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := pc.ws.NaN(size)
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Potrs(ctx, pc.uplo, pc.a, pc.b.Work[j], ws) },
		Copies:  len(pc.b.Work),
		Restore: pc.b.Restore,
		Check:   pc.check,
	}, nil
}

// Output is X (in B's first working copy).
func (pc *potrsTrial[T]) Output() batchlas.Batch[T] { return pc.b.Work[0] }

// check: A*X = B within the backward-error bound of a Cholesky solve.
func (pc *potrsTrial[T]) check() error {
	return trial.CheckCholeskySolve[T](pc.uplo, pc.spd, pc.a, pc.b.Orig, pc.b.Work[0])
}
