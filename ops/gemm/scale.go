package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// scaleC sets C = beta*C, the whole of gemm when k == 0 or alpha == 0.
// beta == 0 writes zeros without reading C.
func scaleC[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	if p.beta == 1 {
		return nil
	}
	return runJob(ctx, runScale, p, float64(p.m*p.n), nil)
}

// scaleRange scales C_lo .. C_{hi-1}.
func scaleRange[T batchlas.Float](p *problem[T], lo, hi int) {
	c, beta := p.c, p.beta
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
}
