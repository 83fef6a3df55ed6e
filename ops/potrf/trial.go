package potrf

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// potrf is timed on SPD matrices (matgen.SPD), restored before every call
// (working copies: trial.InPlace) because the factorisation overwrites its
// input. Its blocked kernel calls trsm and gemm through their entry
// points, so their sources are part of potrf's kernels: a faster gemm
// makes potrf's table stale too.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			return (n*n*n/3 + n*n/2 + n/6) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			// the batch, its pristine copy for restoring
			return 2 * n * n * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newPotrfTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newPotrfTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type potrfTrial[T batchlas.Float] struct {
	uplo     batchlas.Uplo
	a        *trial.InPlace[T]
	checkFor []int
	ws       trial.Workspace[T]
}

func newPotrfTrial[T batchlas.Float](s trial.Shape, seed uint64) (*potrfTrial[T], error) {
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	orig := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) { matgen.SPD(r, b) })
	return &potrfTrial[T]{uplo: uplo, a: trial.NewInPlace(orig), checkFor: trial.CheckedMatrices(count)}, nil
}

func (p *potrfTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, p.uplo, p.a.Orig)
	if err != nil {
		return nil, err
	}
	ws := p.ws.NaN(size)
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Potrf(ctx, p.uplo, p.a.Work[j], ws) },
		Copies:  len(p.a.Work),
		Restore: p.a.Restore,
		Check:   p.check,
	}, nil
}

// Output is the factor (in A's first working copy).
func (p *potrfTrial[T]) Output() batchlas.Batch[T] { return p.a.Work[0] }

// check: A = L*L^T (or U^T*U) within 4*(n+2)*eps of |L|*|L^T|, and the
// other triangle untouched.
func (p *potrfTrial[T]) check() error {
	n := p.a.Orig.Rows
	tol := 4 * float64(n+2) * matgen.Eps[T]()
	for _, i := range p.checkFor {
		got, orig := trial.DenseOf(p.a.Work[0], i), trial.DenseOf(p.a.Orig, i)
		f := trial.NewDense(n, n) // the factor, as L
		for j := 0; j < n; j++ {
			for r := 0; r < n; r++ {
				inTri := (p.uplo == batchlas.Lower && r >= j) || (p.uplo == batchlas.Upper && r <= j)
				if !inTri {
					if got.At(r, j) != orig.At(r, j) {
						return fmt.Errorf("matrix %d: element (%d,%d) outside the %s triangle was written", i, r, j, p.uplo)
					}
					continue
				}
				if p.uplo == batchlas.Lower {
					f.V[r+j*n] = got.At(r, j)
				} else {
					f.V[j+r*n] = got.At(r, j) // U^T is lower
				}
			}
		}
		prod, abs := trial.MulAbs(f, f.Op(true))
		if err := trial.WithinBound(fmt.Sprintf("matrix %d: L*L^T vs A", i), prod, orig, abs, tol); err != nil {
			return err
		}
	}
	return nil
}
