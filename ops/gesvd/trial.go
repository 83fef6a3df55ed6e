package gesvd

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// gesvd is timed on random m x n matrices with entries uniform in [-1,
// 1), which it only reads, so nothing is restored. A key with vectors V
// asks for the thin vectors of both sides (ThinVectors, ThinVectors), the
// common call; N asks for the values alone. s, u and vt are poisoned with
// NaN before a verified call, and the check is trial.CheckSVD in float64
// against a reference of its own.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			return flopsPerMatrix(s.Num("m"), s.Num("n"), s.Get("vectors") == "V") * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := float64(s.Num("m")), float64(s.Num("n"))
			e := m*n + min(m, n)
			if s.Get("vectors") == "V" {
				e += (m + n) * min(m, n)
			}
			return e * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGesvdTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGesvdTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type gesvdTrial[T batchlas.Float] struct {
	job      Job
	a, u, vt batchlas.Batch[T]
	s        batchlas.Vectors[T]
	ws       trial.Workspace[T]
}

func newGesvdTrial[T batchlas.Float](s trial.Shape, seed uint64) (*gesvdTrial[T], error) {
	job, err := trial.Letter[byte]("vectors", s.Get("vectors"), 'N', 'V')
	if err != nil {
		return nil, err
	}
	m, n, count := s.Num("m"), s.Num("n"), s.Num("batch")
	k := min(m, n)
	r := matgen.Rand(seed)
	a := trial.TiledBatch[T](r, m, n, count, func(b batchlas.Batch[T]) {
		for i := 0; i < b.Count; i++ {
			for c := 0; c < n; c++ {
				for row := 0; row < m; row++ {
					b.Set(i, row, c, T(2*r.Float64()-1))
				}
			}
		}
	})
	tc := &gesvdTrial[T]{job: NoVectors, a: a, s: batchlas.NewVectors[T](max(1, k), count)}
	if job == 'V' {
		tc.job = ThinVectors
		tc.u = batchlas.NewBatch[T](m, k, count)
		tc.vt = batchlas.NewBatch[T](k, n, count)
	}
	return tc, nil
}

func (tc *gesvdTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.job, tc.job, tc.a, tc.s, tc.u, tc.vt)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call:   func(ctx context.Context, _ int) error { return Gesvd(ctx, tc.job, tc.job, tc.a, tc.s, tc.u, tc.vt, ws) },
		Copies: 1,
		Poison: func() {
			for _, d := range [][]T{tc.s.Data, tc.u.Data, tc.vt.Data} {
				for i := range d {
					d[i] = T(math.NaN())
				}
			}
		},
		Check: tc.check,
	}, nil
}

// Output is the singular values, one column per matrix.
func (tc *gesvdTrial[T]) Output() batchlas.Batch[T] { return batchlas.VectorsAsBatch(tc.s) }

// check: every checked matrix's decomposition (trial.CheckSVD).
func (tc *gesvdTrial[T]) check() error {
	k := min(tc.a.Rows, tc.a.Cols)
	for _, i := range trial.CheckedMatrices(tc.a.Count) {
		s := make([]float64, k)
		for j := range s {
			s[j] = float64(tc.s.At(i, j))
		}
		var u, vt *trial.Dense
		if tc.job != NoVectors {
			du, dvt := trial.DenseOf(tc.u, i), trial.DenseOf(tc.vt, i)
			u, vt = &du, &dvt
		}
		if err := trial.CheckSVD(fmt.Sprintf("matrix %d", i), trial.DenseOf(tc.a, i), s, u, vt, matgen.Eps[T]()); err != nil {
			return err
		}
	}
	return nil
}
