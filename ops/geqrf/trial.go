package geqrf

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// geqrf is timed on random m x n matrices with entries uniform in [-1,
// 1). A is restored before every call (working copies: trial.InPlace)
// because the factorisation overwrites it; tau goes to one shared batch
// of vectors, poisoned with NaN before a verified call. The check is by
// residual against the original in float64 (trial.CheckQRFactor).
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return flopsPerMatrix(s.Num("m"), s.Num("n")) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := float64(s.Num("m")), float64(s.Num("n"))
			// the batch, its pristine copy for restoring, tau
			return (2*m*n + min(m, n)) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGeqrfTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGeqrfTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type geqrfTrial[T batchlas.Float] struct {
	a        *trial.InPlace[T]
	tau      batchlas.Vectors[T]
	checkFor []int
	ws       trial.Workspace[T]
}

func newGeqrfTrial[T batchlas.Float](s trial.Shape, seed uint64) (*geqrfTrial[T], error) {
	m, n, count := s.Num("m"), s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	orig := trial.TiledBatch[T](r, m, n, count, func(b batchlas.Batch[T]) {
		for i := 0; i < b.Count; i++ {
			for c := 0; c < n; c++ {
				for row := 0; row < m; row++ {
					b.Set(i, row, c, T(2*r.Float64()-1))
				}
			}
		}
	})
	return &geqrfTrial[T]{a: trial.NewInPlace(orig), tau: batchlas.NewVectors[T](max(1, min(m, n)), count), checkFor: trial.CheckedMatrices(count)}, nil
}

func (p *geqrfTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, p.a.Orig, p.tau)
	if err != nil {
		return nil, err
	}
	ws := p.ws.NaN(size)
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Geqrf(ctx, p.a.Work[j], p.tau, ws) },
		Copies:  len(p.a.Work),
		Restore: p.a.Restore,
		Poison: func() {
			for j := range p.tau.Data {
				p.tau.Data[j] = T(math.NaN())
			}
		},
		Check: p.check,
	}, nil
}

// Output is the factor (in A's first working copy).
func (p *geqrfTrial[T]) Output() batchlas.Batch[T] { return p.a.Work[0] }

// check: every checked matrix's factor and tau reproduce the original
// (trial.CheckQRFactor).
func (p *geqrfTrial[T]) check() error {
	k := min(p.a.Orig.Rows, p.a.Orig.Cols)
	for _, i := range p.checkFor {
		tau := make([]float64, k)
		for j := range tau {
			tau[j] = float64(p.tau.At(i, j))
		}
		if err := trial.CheckQRFactor(fmt.Sprintf("matrix %d", i), trial.DenseOf(p.a.Orig, i), trial.DenseOf(p.a.Work[0], i), tau, matgen.Eps[T]()); err != nil {
			return err
		}
	}
	return nil
}
