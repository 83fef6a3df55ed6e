//go:build !novendor

package gemm

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates is the gonum BLAS choice, compiled unless -tags novendor.
var vendorCandidates = []sel.Choice{familyVendor.With()}

// vendor calls gonum's Dgemm/Sgemm once per matrix, parallel over the
// batch. gonum is row-major: a column-major m x n matrix with leading
// dimension ld is the row-major n x m matrix with stride ld, so
// C = op(A)*op(B) is computed as C^T = op(B)^T * op(A)^T with the same
// transpose flags, without copying.
func vendor[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	return runJob(ctx, runVendor, p, flops, nil)
}

// vendorRange multiplies matrices lo .. hi-1 with gonum.
func vendorRange[T batchlas.Float](p *problem[T], lo, hi int) {
	var impl gonum.Implementation
	tA, tB := blas.NoTrans, blas.NoTrans
	if p.transA {
		tA = blas.Trans
	}
	if p.transB {
		tB = blas.Trans
	}
	a, b, c := p.a, p.b, p.c
	switch any(p.alpha).(type) {
	case float64:
		alpha, beta := any(p.alpha).(float64), any(p.beta).(float64)
		ad, bd, cd := any(a.Data).([]float64), any(b.Data).([]float64), any(c.Data).([]float64)
		for i := lo; i < hi; i++ {
			impl.Dgemm(tB, tA, p.n, p.m, p.k, alpha,
				bd[i*b.Stride:][:span(b)], b.LD, ad[i*a.Stride:][:span(a)], a.LD,
				beta, cd[i*c.Stride:][:span(c)], c.LD)
		}
	default:
		alpha, beta := any(p.alpha).(float32), any(p.beta).(float32)
		ad, bd, cd := any(a.Data).([]float32), any(b.Data).([]float32), any(c.Data).([]float32)
		for i := lo; i < hi; i++ {
			impl.Sgemm(tB, tA, p.n, p.m, p.k, alpha,
				bd[i*b.Stride:][:span(b)], b.LD, ad[i*a.Stride:][:span(a)], a.LD,
				beta, cd[i*c.Stride:][:span(c)], c.LD)
		}
	}
}
