package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// direct runs the multiply on the operands as they lie in memory.
func direct[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	return parallel.For(ctx, p.c.Count, flops, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			directOne(p, p.a.Data[i*p.a.Stride:], p.b.Data[i*p.b.Stride:], p.c.Data[i*p.c.Stride:])
		}
	})
}

// directOne multiplies one matrix.
func directOne[T batchlas.Float](p *problem[T], a, b, c []T) {
	lda, ldb, ldc := p.a.LD, p.b.LD, p.c.LD
	ai, al := 1, lda
	if p.transA {
		ai, al = lda, 1
	}
	bl, bj := 1, ldb
	if p.transB {
		bl, bj = ldb, 1
	}
	for j := 0; j < p.n; j++ {
		for i := 0; i < p.m; i++ {
			var s T
			for l := 0; l < p.k; l++ {
				s += a[i*ai+l*al] * b[l*bl+j*bj]
			}
			if p.beta == 0 {
				c[i+j*ldc] = p.alpha * s
			} else {
				c[i+j*ldc] = p.alpha*s + p.beta*c[i+j*ldc]
			}
		}
	}
}
