package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// packedNC caps the columns of op(B) packed at once, so the packed B block
// (kc x packedNC) stays in L2/L3 for wide C. It follows from the cache
// sizes the fields already fix, so it is not a field of its own.
const packedNC = 512

// packedPerWorker is the scratch one worker needs: an mc x kc block of
// op(A) and a kc x nc block of op(B), each trimmed to the problem.
func packedPerWorker(c sel.Choice, m, n, k int) int {
	mc, kc := c.Value(0), c.Value(1)
	kb := min(kc, k)
	mb := roundUp(min(mc, m), mr)
	nb := roundUp(min(packedNC, n), nr)
	return mb*kb + kb*nb
}

func roundUp(x, to int) int { return (x + to - 1) / to * to }

// packed runs the GotoBLAS loop nest on each matrix: for each kc-deep
// slice of k, pack a kc x nc block of op(B); for each mc-row block of
// op(A), pack it and sweep mr x nr micro-tiles over the block.
func packed[T batchlas.Float](ctx context.Context, p *problem[T], ch sel.Choice, ws []T) error {
	mc, kc := ch.Value(0), ch.Value(1)
	need := packedPerWorker(ch, p.m, p.n, p.k)
	per := parallel.Pad(need)
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	a, b, c := p.a, p.b, p.c
	return parallel.For(ctx, c.Count, flops, func(w, lo, hi int) {
		scratch := ws[w*per : w*per+need]
		for i := lo; i < hi; i++ {
			packedOne(p, mc, kc, scratch, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
		}
	})
}

// packedOne multiplies one matrix with the scratch of one worker.
func packedOne[T batchlas.Float](p *problem[T], mc, kc int, scratch, a, b, c []T) {
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	for j0 := 0; j0 < n; j0 += packedNC {
		nb := min(packedNC, n-j0)
		for l0 := 0; l0 < k; l0 += kc {
			kb := min(kc, k-l0)
			beta := p.beta
			if l0 > 0 {
				beta = 1
			}
			bp := scratch[len(scratch)-kb*roundUp(nb, nr):]
			packB(bp, b, p.b.LD, p.transB, l0, kb, j0, nb)
			for i0 := 0; i0 < m; i0 += mc {
				mb := min(mc, m-i0)
				ap := scratch[:kb*roundUp(mb, mr)]
				if p.transA {
					packA(ap, a, p.a.LD, true, i0, mb, l0, kb)
				} else {
					packAN(ap, a, p.a.LD, i0, mb, l0, kb)
				}
				for jr := 0; jr < nb; jr += nr {
					bpan := bp[jr*kb:]
					for ir := 0; ir < mb; ir += mr {
						c0, c1, c2, c3, d0, d1, d2, d3 := microTile(kb, ap[ir*kb:], bpan)
						storeTile(c[(j0+jr)*ldc+i0+ir:], ldc, min(mr, mb-ir), min(nr, nb-jr), p.alpha, beta, c0, c1, c2, c3, d0, d1, d2, d3)
					}
				}
			}
		}
	}
}
