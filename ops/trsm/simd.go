package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// launchSIMD solves each matrix on one worker with package simd's blocked
// solves: diagonal blocks of simd.TriBlock by substitution in Go, every
// off-diagonal block as a product on the vector tile (AVX-512 on
// x86-64-v4). B is first scaled by alpha. alpha is not 0 (Trsm zeroes B
// itself).
func launchSIMD[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T]) error {
	flops := float64(p.t) * float64(p.t) * float64(p.r)
	return runJob(ctx, runSIMD, p, alpha, a, b, nil, flops, 0, nil)
}

// simd solves matrices [lo, hi).
func (j *job[T]) simd(lo, hi int) {
	p, a, b, alpha := &j.p, j.a, j.b, j.alpha
	upper := p.uplo == batchlas.Upper
	trans := p.ta != batchlas.NoTrans
	unit := p.diag == batchlas.Unit
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
}
