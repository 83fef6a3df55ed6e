package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// launchSIMD solves each matrix on one worker with package simd's blocked
// solves: diagonal blocks of simd.TriBlock by substitution in Go, every
// off-diagonal block as a product on the vector tile (AVX-512 on
// x86-64-v4). B is first scaled by alpha. alpha is not 0 (Trsm zeroes B
// itself).
func launchSIMD[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T]) error {
	upper := p.uplo == batchlas.Upper
	trans := p.ta != batchlas.NoTrans
	unit := p.diag == batchlas.Unit
	flops := float64(p.t) * float64(p.t) * float64(p.r)
	return parallel.For(ctx, b.Count, flops, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			ai, bi := a.Data[i*a.Stride:], b.Data[i*b.Stride:]
			if alpha != 1 {
				for j := range p.n {
					col := bi[j*b.LD:][:p.m]
					for r := range col {
						col[r] *= alpha
					}
				}
			}
			if p.side == batchlas.Left {
				simd.TriSolve(upper, trans, unit, p.m, ai, a.LD, bi, b.LD, p.n)
			} else {
				simd.TriSolveRight(upper, trans, unit, p.m, p.n, ai, a.LD, bi, b.LD)
			}
		}
	})
}
