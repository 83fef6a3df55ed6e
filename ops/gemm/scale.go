package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// scaleC sets C = beta*C, the whole of gemm when k == 0 or alpha == 0.
// beta == 0 writes zeros without reading C.
func scaleC[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	c, beta := p.c, p.beta
	if beta == 1 {
		return nil
	}
	return parallel.For(ctx, c.Count, float64(p.m*p.n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			for j := 0; j < p.n; j++ {
				col := c.Data[i*c.Stride+j*c.LD:][:p.m]
				if beta == 0 {
					clear(col)
					continue
				}
				for r := range col {
					col[r] *= beta
				}
			}
		}
	})
}
