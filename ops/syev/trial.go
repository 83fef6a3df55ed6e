package syev

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
	"github.com/batchlas-go/batchlas/internal/trial"
	sel "github.com/batchlas-go/batchlas/select"
)

// syev is timed on symmetric matrices of known spectrum (knownSpectrum:
// Q*diag(lambda)*Q^T, Q a product of random reflectors, lambda spread over
// [-1, 1]), A restored before every call (working copies: trial.InPlace)
// because with vectors the eigenvectors overwrite it; the eigenvalues go
// to one shared batch of vectors, poisoned before a verified call. Its
// blocked kernel calls gemm through its entry point, so gemm's sources
// are part of syev's kernels.
func init() {
	Op.SetMeasure(sel.Measure{
		Flops: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			f := 4 * n * n * n / 3
			if s.Get("jobz") == "V" {
				f = 9 * n * n * n
			}
			return (f + n*n) * float64(s.Num("batch"))
		},
		Elems: func(k sel.Key) float64 {
			s := trial.ShapeOf(Op, k)
			n := float64(s.Num("n"))
			// the batch, its pristine copy for restoring, the eigenvalues
			return (2*n*n + n) * float64(s.Num("batch"))
		},
		New: func(dt sel.DType, k sel.Key, seed uint64) (sel.Trial, error) {
			if dt == sel.Float32 {
				return newSyevTrial[float32](trial.ShapeOf(Op, k), seed)
			}
			return newSyevTrial[float64](trial.ShapeOf(Op, k), seed)
		},
	})
}

type syevTrial[T batchlas.Float] struct {
	jobz     Job
	uplo     batchlas.Uplo
	a        *trial.InPlace[T]
	w        batchlas.Vectors[T]
	lambda   [][]float64 // the spectrum of each distinct matrix, ascending
	checkFor []int
	ws       trial.Workspace[T]
}

func newSyevTrial[T batchlas.Float](s trial.Shape, seed uint64) (*syevTrial[T], error) {
	jobz, err := trial.Letter("jobz", s.Get("jobz"), ValuesOnly, WithVectors)
	if err != nil {
		return nil, err
	}
	uplo, err := trial.Letter("uplo", s.Get("uplo"), batchlas.Lower, batchlas.Upper)
	if err != nil {
		return nil, err
	}
	n, count := s.Num("n"), s.Num("batch")
	r := matgen.Rand(seed)
	var lambda [][]float64
	orig := trial.TiledBatch[T](r, n, n, count, func(b batchlas.Batch[T]) {
		for i := 0; i < b.Count; i++ {
			lambda = append(lambda, knownSpectrum(r, b, i))
		}
	})
	return &syevTrial[T]{jobz: jobz, uplo: uplo, a: trial.NewInPlace(orig), w: batchlas.NewVectors[T](n, count),
		lambda: lambda, checkFor: trial.CheckedMatrices(count)}, nil
}

// knownSpectrum writes Q*diag(lambda)*Q^T into matrix i of b, both
// triangles, and returns lambda sorted ascending: n values spread evenly
// over [-1, 1] with a random sign pattern of gaps, and Q the product of
// max(n, 3) reflectors I - 2*u*u^T of random unit u (exactly orthogonal
// in exact arithmetic). So many reflectors make A as dense as a random
// symmetric matrix: nearly all of its Frobenius norm lies off the
// diagonal. With only a few, A is the diagonal plus a small low-rank term
// (at n = 128, 3 reflectors leave about 1/sqrt(n) of the norm off the
// diagonal), on which Jacobi converges in far fewer sweeps than on the
// matrices users bring, and the tables ranked it accordingly. The matrix
// is formed in float64 (O(n^3), on trial.DistinctMatrices matrices per
// batch) and rounded to T once; at n = 256 its eigenvalues lie within 30
// eps|A| of lambda, far inside check's bound.
func knownSpectrum[T batchlas.Float](r *rand.Rand, b batchlas.Batch[T], i int) []float64 {
	n := b.Rows
	lambda := make([]float64, n)
	for j := range lambda {
		lambda[j] = -1 + 2*(float64(j)+0.5*r.Float64())/float64(max(n, 1))
	}
	a := make([]float64, n*n)
	for j, l := range lambda {
		a[j+j*n] = l
	}
	u, au := make([]float64, n), make([]float64, n)
	for range max(n, 3) {
		s := 0.0
		for k := range u {
			u[k] = r.NormFloat64()
			s += u[k] * u[k]
		}
		s = math.Sqrt(s)
		for k := range u {
			u[k] /= s
		}
		// A := H*A*H, H = I - 2uu^T: with x = A*u and g = u^T*x,
		// H*A*H = A - 2(x*u^T + u*x^T) + 4g*u*u^T.
		clear(au)
		for k, uk := range u {
			col := a[k*n : k*n+n]
			for row, v := range col {
				au[row] += v * uk
			}
		}
		g := 0.0
		for row := range n {
			g += u[row] * au[row]
		}
		for c := 0; c < n; c++ {
			col := a[c*n : c*n+n]
			uc, xc := u[c], au[c]
			for row := range col {
				col[row] += -2*(au[row]*uc+u[row]*xc) + 4*g*u[row]*uc
			}
		}
	}
	for c := 0; c < n; c++ {
		for row := c; row < n; row++ {
			v := T((a[row+c*n] + a[c+row*n]) / 2) // exactly symmetric
			b.Set(i, row, c, v)
			b.Set(i, c, row, v)
		}
	}
	slices.Sort(lambda)
	return lambda
}

func (p *syevTrial[T]) Bind(ctx context.Context) (*sel.Bound, error) {
	size, err := BufferSize(ctx, p.jobz, p.uplo, p.a.Orig, p.w)
	if err != nil {
		return nil, err
	}
	ws := p.ws.NaN(size)
	return &sel.Bound{
		Call:    func(ctx context.Context, j int) error { return Syev(ctx, p.jobz, p.uplo, p.a.Work[j], p.w, ws) },
		Copies:  len(p.a.Work),
		Restore: p.a.Restore,
		Poison: func() {
			for j := range p.w.Data {
				p.w.Data[j] = T(math.NaN())
			}
		},
		Check: p.check,
	}, nil
}

// Output is the eigenvalues; V is checked through them.
func (p *syevTrial[T]) Output() batchlas.Batch[T] { return batchlas.VectorsAsBatch(p.w) }

// check: the eigenvalues are ascending and within 16*(n+1)*eps*|A|_2 of
// the known spectrum (plus the rounding of A to T, eps*|A|_2); with
// vectors, |A*V - V*diag(w)|_F <= 30*n*eps*|A|_F and |V^T*V - I|_F <=
// 30*n*eps (the bounds LAPACK's tests put on these ratios), and every
// column's largest entry is positive; without vectors, A is untouched.
func (p *syevTrial[T]) check() error {
	n := p.a.Orig.Rows
	eps := matgen.Eps[T]()
	for _, i := range p.checkFor {
		lambda := p.lambda[i%len(p.lambda)]
		norm2 := max(math.Abs(lambda[0]), math.Abs(lambda[n-1]))
		for j := 0; j < n; j++ {
			got := float64(p.w.At(i, j))
			if d := math.Abs(got - lambda[j]); !(d <= (16*float64(n+1)+1)*eps*norm2) {
				return fmt.Errorf("matrix %d: eigenvalue %d is %g, want %g", i, j, got, lambda[j])
			}
		}
		orig := trial.DenseOf(p.a.Orig, i)
		got := trial.DenseOf(p.a.Work[0], i)
		if p.jobz == ValuesOnly {
			for k := range got.V {
				if got.V[k] != orig.V[k] {
					return fmt.Errorf("matrix %d: A was written without vectors (element %d)", i, k)
				}
			}
			continue
		}
		frob := 0.0
		for _, v := range orig.V {
			frob += v * v
		}
		frob = math.Sqrt(frob)
		av := trial.Mul(orig, got)
		vtv := trial.Mul(got.Op(true), got)
		res, orth := 0.0, 0.0
		for c := 0; c < n; c++ {
			wc := float64(p.w.At(i, c))
			big, at := -1.0, 0
			for r := 0; r < n; r++ {
				d := av.At(r, c) - got.At(r, c)*wc
				res += d * d
				o := vtv.At(r, c)
				if r == c {
					o--
				}
				orth += o * o
				if m := math.Abs(got.At(r, c)); m > big {
					big, at = m, r
				}
			}
			if !(got.At(at, c) > 0) {
				return fmt.Errorf("matrix %d: eigenvector %d's largest entry (row %d) is %g, not positive", i, c, at, got.At(at, c))
			}
		}
		if res = math.Sqrt(res); !(res <= 30*float64(n)*eps*frob) {
			return fmt.Errorf("matrix %d: residual |AV - VW| = %g, %.3g n eps |A|", i, res, res/(float64(n)*eps*frob))
		}
		if orth = math.Sqrt(orth); !(orth <= 30*float64(n)*eps) {
			return fmt.Errorf("matrix %d: orthogonality |V'V - I| = %g, %.3g n eps", i, orth, orth/(float64(n)*eps))
		}
	}
	return nil
}
