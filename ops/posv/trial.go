package posv

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// posv is timed on SPD matrices (matgen.SPD) and random right-hand sides.
// It overwrites both A (with the factor) and B (with X), so both are
// restored before every call, as many working copies of each as the
// smaller of the two allows. Its nested kernel calls potrf and potrs
// through their entry points (and they trsm and gemm), so their sources
// are part of posv's kernels: the op is measured after them.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			return (n*n*n/3 + n*n/2 + n/6 + 2*n*n*nrhs) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n, nrhs := float64(s.Num("n")), float64(s.Num("nrhs"))
			// A and B, each with its pristine copy
			return 2 * (n*n + n*nrhs) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newPosvTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPosvTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type posvTrial[T batchlas.Float] struct {
	uplo batchlas.Uplo
	a, b *trial.InPlace[T]
	ws   trial.Workspace[T]
}

func newPosvTrial[T batchlas.Float](s trial.Shape, seed uint64) (*posvTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, nrhs, count := s.Num("n"), s.Num("nrhs"), s.Num("batch")
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	b := trial.TiledBatch[T](r, n, nrhs, count, nil)
	return &posvTrial[T]{uplo: uplo, a: trial.NewInPlace(a), b: trial.NewInPlace(b)}, nil
}

func (pc *posvTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, pc.uplo, pc.a.Orig, pc.b.Orig)
	if err != nil {
		return nil, err
	}
	ws := pc.ws.NaN(size)
	// Call j overwrites working copy j of both operands.
	copies := min(len(pc.a.Work), len(pc.b.Work))
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Posv(ctx, pc.uplo, pc.a.Work[j], pc.b.Work[j], ws)
		},
		Copies: copies,
		Restore: func(k int) {
			pc.a.Restore(k)
			pc.b.Restore(k)
		},
		Check: pc.check,
	}, nil
}

// Output is X (in B's first working copy); the factor in A is checked
// through it.
func (pc *posvTrial[T]) Output() batchlas.Batch[T] { return pc.b.Work[0] }

// check: the factor posv left in A and X solve A*X = B within the
// backward-error bound of a Cholesky solve, and the other triangle of A
// was not written.
func (pc *posvTrial[T]) check() error {
	orig, got := pc.a.Orig, pc.a.Work[0]
	n := orig.Rows
	for _, i := range trial.CheckedMatrices(orig.Count) {
		for j := 0; j < n; j++ {
			for r := 0; r < n; r++ {
				inTri := (pc.uplo == batchlas.Lower && r >= j) || (pc.uplo == batchlas.Upper && r <= j)
				if !inTri && got.At(i, r, j) != orig.At(i, r, j) {
					return fmt.Errorf("matrix %d: element (%d,%d) outside the %s triangle was written", i, r, j, pc.uplo)
				}
			}
		}
	}
	return trial.CheckCholeskySolve[T](pc.uplo, orig, got, pc.b.Orig, pc.b.Work[0])
}
