package orgqr

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	"github.com/batchlas-go/batchlas/internal/trial/qrref"
	sel "github.com/batchlas-go/batchlas/select"
)

// orgqr is timed on the QR factors (k = n reflectors) of random m x n
// matrices, factored once per trial in float64 by internal/trial's own
// Householder QR (no geqrf op existed when this was written) and rounded
// to the dtype; the factors are restored before every call (trial.InPlace)
// because the call overwrites them with Q. The check compares Q with the
// reflectors applied one at a time to the identity in float64, and Q's
// columns' orthonormality.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			p := problem{m: s.Num("m"), n: s.Num("n"), k: s.Num("n")}
			return flopsPerMatrix(&p) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			m, n := float64(s.Num("m")), float64(s.Num("n"))
			// the factors, their working copy, tau
			return (2*m*n + n) * float64(s.Num("batch"))
		},
		Problem: func(k sel.Key) error {
			s := trial.ShapeOf(Op, k)
			if m, n := s.Num("m"), s.Num("n"); n > m {
				return fmt.Errorf("orgqr forms m x n Q with m >= n; n %d > m %d", n, m)
			}
			return nil
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newOrgqrTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newOrgqrTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type orgqrTrial[T batchlas.Float] struct {
	fac  *trial.InPlace[T]
	tau  batchlas.Vectors[T]
	ws   trial.Workspace[T]
	refs map[int]trial.Dense // Q of each checked matrix, from its rounded factors
}

func newOrgqrTrial[T batchlas.Float](s trial.Shape, seed uint64) (*orgqrTrial[T], error) {
	m, n, count := s.Num("m"), s.Num("n"), s.Num("batch")
	if n > m {
		return nil, fmt.Errorf("orgqr inputs: n %d > m %d", n, m)
	}
	r := matgen.Rand(seed)
	d := min(count, trial.DistinctMatrices)
	src := matgen.Batch[T](r, m, n, d, 0, 0)
	fac := batchlas.NewBatch[T](m, n, d)
	dtau := batchlas.NewVectors[T](n, d)
	tc := &orgqrTrial[T]{refs: map[int]trial.Dense{}}
	facs := make([]trial.Dense, d)
	taus := make([][]float64, d)
	for i := 0; i < d; i++ {
		facs[i], taus[i] = qrref.FactorsOf(src, i, fac, dtau)
	}
	tc.fac = trial.NewInPlace(trial.Repeat(fac, count))
	tc.tau = batchlas.NewVectors[T](n, count)
	for i := 0; i < count; i++ {
		copy(tc.tau.Vector(i), dtau.Vector(i%d))
	}
	eye := trial.NewDense(m, n)
	for j := 0; j < n; j++ {
		eye.V[j+j*m] = 1
	}
	for _, i := range trial.CheckedMatrices(count) {
		tc.refs[i] = qrref.ApplyReflectors(true, false, facs[i%d], taus[i%d], n, eye)
	}
	return tc, nil
}

func (tc *orgqrTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, tc.fac.Orig, tc.tau)
	if err != nil {
		return nil, err
	}
	ws := tc.ws.NaN(size)
	return &sel.Bound{
		Call: func(ctx context.Context, j int) error {
			return Orgqr(ctx, tc.fac.Work[j], tc.tau, ws)
		},
		Copies:  len(tc.fac.Work),
		Restore: tc.fac.Restore,
		Check:   tc.check,
	}, nil
}

// Output is Q (in the factors' first working copy).
func (tc *orgqrTrial[T]) Output() batchlas.Batch[T] { return tc.fac.Work[0] }

// check: Q within 4*(m+n)*eps of the float64 reference elementwise, and
// its columns orthonormal within 64*n*eps.
func (tc *orgqrTrial[T]) check() error {
	q := tc.fac.Work[0]
	m, n := q.Rows, q.Cols
	eps := matgen.Eps[T]()
	for _, i := range trial.CheckedMatrices(q.Count) {
		got := trial.DenseOf(q, i)
		if err := qrref.MaxAbsDiff(fmt.Sprintf("matrix %d: Q vs the reflectors applied in float64", i), got, tc.refs[i], 4*float64(m+n)*eps); err != nil {
			return err
		}
		if err := qrref.Orthonormal(fmt.Sprintf("matrix %d", i), got, 64*float64(max(n, 1))*eps); err != nil {
			return err
		}
	}
	return nil
}
