package getrf

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// getrf is timed on matgen.General matrices: well conditioned, with each
// column's largest entry in a random row, so the kernels interchange rows
// at almost every step as on typical data (a diagonally dominant input
// would never swap and time a cheaper path). A is restored before every
// call (working copies: trial.InPlace) because the factorisation
// overwrites it; the pivots go to one shared batch of vectors, poisoned
// before a verified call. Its batched kernel calls trsm and gemm through
// their entry points, so their sources are part of getrf's kernels.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			return 2 * n * n * n / 3 * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			// the batch, its pristine copy for restoring, the pivots
			return (2*n*n + n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newGetrfTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newGetrfTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type getrfTrial[T batchlas.Float] struct {
	a        *trial.InPlace[T]
	ipiv     batchlas.Vectors[int32]
	checkFor []int
	ws       trial.Workspace[T]
}

func newGetrfTrial[T batchlas.Float](s trial.Shape, seed uint64) (*getrfTrial[T], error) {
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	orig := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.General(r, b) })
	return &getrfTrial[T]{a: trial.NewInPlace(orig), ipiv: batchlas.NewVectors[int32](n, count), checkFor: trial.CheckedMatrices(count)}, nil
}

func (p *getrfTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, p.a.Orig, p.ipiv)
	if err != nil {
		return nil, err
	}
	ws := p.ws.NaN(size)
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Getrf(ctx, p.a.Work[j], p.ipiv, ws) },
		Copies:  len(p.a.Work),
		Restore: p.a.Restore,
		Poison: func() {
			for j := range p.ipiv.Data {
				p.ipiv.Data[j] = -1
			}
		},
		Check: p.check,
	}, nil
}

// Output is the factor (in A's first working copy).
func (p *getrfTrial[T]) Output() batchlas.Batch[T] { return p.a.Work[0] }

// check: valid pivots (j <= ipiv[j] < n), multipliers of magnitude at
// most 1 (partial pivoting), and P*L*U = A within 4*(n+2)*eps of
// P*|L|*|U| elementwise, the backward-error bound of LU in any summation
// order.
func (p *getrfTrial[T]) check() error {
	n := p.a.Orig.Rows
	eps := matgen.Eps[T]()
	tol := 4 * float64(n+2) * eps
	for _, i := range p.checkFor {
		got, orig := trial.DenseOf(p.a.Work[0], i), trial.DenseOf(p.a.Orig, i)
		l := trial.NewDense(n, n)
		u := trial.NewDense(n, n)
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				switch {
				case r > c:
					if m := math.Abs(got.At(r, c)); !(m <= 1+2*eps) {
						return fmt.Errorf("matrix %d: |L(%d,%d)| = %g > 1: not partial pivoting", i, r, c, m)
					}
					l.V[r+c*n] = got.At(r, c)
				case r == c:
					l.V[r+c*n] = 1
					u.V[r+c*n] = got.At(r, c)
				default:
					u.V[r+c*n] = got.At(r, c)
				}
			}
		}
		prod, abs := trial.MulAbs(l, u)
		for j := n - 1; j >= 0; j-- { // P*(L*U): undo the interchanges, last first
			q := int(p.ipiv.At(i, j))
			if q < j || q >= n {
				return fmt.Errorf("matrix %d: ipiv[%d] = %d, want in [%d, %d)", i, j, q, j, n)
			}
			for c := 0; c < n; c++ {
				prod.V[j+c*n], prod.V[q+c*n] = prod.V[q+c*n], prod.V[j+c*n]
				abs.V[j+c*n], abs.V[q+c*n] = abs.V[q+c*n], abs.V[j+c*n]
			}
		}
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: P*L*U vs A", i), prod, orig, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
