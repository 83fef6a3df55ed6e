package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// smallMax is the largest m, n and k the small kernel takes: both packed
// operands then fit in fixed-size arrays on the goroutine's stack (4 KiB in
// float64), so it needs no workspace and no blocking.
const smallMax = 16

// small packs op(A) and op(B) of each matrix whole into stack tiles and
// sweeps the packed micro-kernel over C: the transposes cost nothing past
// the packing and the inner loop reads contiguous memory.
func small[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	a, b, c := p.a, p.b, p.c
	return parallel.For(ctx, c.Count, flops, func(_, lo, hi int) {
		var ap, bp [smallMax * smallMax]T
		for i := lo; i < hi; i++ {
			smallOne(p, ap[:], bp[:], a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
		}
	})
}

// smallOne multiplies one matrix, with ap and bp as packing tiles.
func smallOne[T batchlas.Float](p *problem[T], ap, bp, a, b, c []T) {
	m, n, k, ldc := p.m, p.n, p.k, p.c.LD
	packA(ap, a, p.a.LD, p.transA, 0, m, 0, k)
	packB(bp, b, p.b.LD, p.transB, 0, k, 0, n)
	for j := 0; j < n; j += nr {
		bpan := bp[j*k:]
		for i := 0; i < m; i += mr {
			c0, c1, c2, c3, d0, d1, d2, d3 := microPacked(k, ap[i*k:], bpan)
			storeTile(c[j*ldc+i:], ldc, min(mr, m-i), min(nr, n-j), p.alpha, p.beta, c0, c1, c2, c3, d0, d1, d2, d3)
		}
	}
}
