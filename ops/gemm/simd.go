package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// simdTiles multiplies each matrix on the operands as they lie in memory with
// register tiles of up to three 64-byte vectors of rows (24 float64 or 48
// float32) by 8 columns, with no packing and no blocking: the tile of
// op(B) (k x 8) stays in L1 while the row tiles go past it, and each
// column of A is read as whole vectors. With op(A) = A^T the row block is
// first copied transposed (simd.Gemm); op(B) may be either, as B's
// elements are broadcast one at a time. Edges cost nothing extra: the last
// row vector is masked, and a last block of fewer than 8 columns repeats
// its last column of B and stores only the columns it has. The tile is
// package simd's: AVX-512 on x86-64-v4, its Go twin elsewhere.
func simdTiles[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	a, b, c := p.a, p.b, p.c
	if parts := splitParts(ctx, p, parallel.Workers(ctx), flops); parts > 1 {
		return splitColumns(ctx, p, parts, parallel.Workers(ctx), flops, func(_ int, sub *problem[T], a, b, c []T) {
			simdOne(sub, a, b, c)
		})
	}
	return parallel.For(ctx, c.Count, flops, func(_, lo, hi int) {
		if p.transA {
			for i := lo; i < hi; i++ {
				if i+1 < hi {
					prefetchNext(p, i+1, 1)
				}
				simdOne(p, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
			}
			return
		}
		simdGroups(p, lo, hi)
	})
}

// simdPanelBytes bounds the row panel of A that simdOne keeps in cache
// while every column tile of C passes over it: about half of a core's L2.
const simdPanelBytes = 512 << 10

// simdSliceDepth is the depth of the k slices simdOne sums a deeper
// product in. Without slices a panel of A that fits simdPanelBytes gets
// thinner as k grows, and at k = 2048 each panel of 24 rows streamed all
// of B from memory (83 GFLOP/s against 150 at k = 1024, float64, two
// cores).
const simdSliceDepth = 512

// simdOne multiplies one matrix. With op(A) = A the tiles run by row
// panels of A of at most simdPanelBytes: each column block of op(B) then
// passes over a panel that stays in L2, where without panels a matrix too
// big for L2 would stream all of A from memory once per 8 columns. The
// order of the tiles changes no sum, so neither does the panel height. A
// product deeper than simdSliceDepth is summed in slices of that depth,
// each added to C (C = alpha*S_1 + beta*C, then C = alpha*S_s + C): the
// slices, like the panels, are fixed by the shape alone, so the result is
// the same for any number of workers.
func simdOne[T batchlas.Float](p *problem[T], a, b, c []T) {
	if p.transA {
		simd.Gemm(true, p.transB, p.m, p.n, p.k, p.alpha, a, p.a.LD, b, p.b.LD, p.beta, c, p.c.LD)
		return
	}
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	tileRows := 3 * simd.Lanes[T]()
	depth := k
	if k > simdSliceDepth {
		depth = simdSliceDepth
	}
	panel := max(tileRows, simdPanelBytes/(elemSize[T]()*depth)/tileRows*tileRows)
	for l0 := 0; l0 < k; l0 += depth {
		kb := min(depth, k-l0)
		ab, hasBeta := [2]T{p.alpha, p.beta}, p.beta != 0
		if l0 > 0 {
			ab[1], hasBeta = 1, true
		}
		for r0 := 0; r0 < m; r0 += panel {
			end := min(m, r0+panel)
			for j0 := 0; j0 < n; j0 += simd.Cols {
				bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
				bj = bj[l0*bsl:]
				for i0 := r0; i0 < end; i0 += tileRows {
					rows := min(tileRows, end-i0)
					simd.Tile(kb, a[l0*lda+i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, hasBeta, 1, 0, 0, 0)
				}
			}
		}
	}
}

// simdGroupBytes bounds the operands of the matrices that simdGroups runs
// tile by tile together: about half of a core's L2, so a group stays in
// cache while each of its tiles passes over all of its matrices.
const simdGroupBytes = 256 << 10

// simdGroups multiplies matrices lo .. hi-1 with op(A) = A. Each call of
// the tile runs one tile position over a group of matrices (the assembly
// loops over the batch), so a matrix of one tile (m up to 24 or 48, n up to
// 8) costs one pass of the assembly and no Go code. The k == 0 case never
// comes here (Gemm scales C instead).
func simdGroups[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	sa, sb, sc := p.a.Stride, p.b.Stride, p.c.Stride
	tileRows := 3 * simd.Lanes[T]()
	ab := [2]T{p.alpha, p.beta}
	per := max(1, simdGroupBytes/(elemSize[T]()*(span(p.a)+span(p.b)+span(p.c))))
	for g0 := lo; g0 < hi; g0 += per {
		count := min(per, hi-g0)
		// The next group's A and B, all at once: its fetches then
		// overlap this group's arithmetic (asking for it a part per
		// tile, or for C too, measured slower).
		if next := min(per, hi-g0-count); next > 0 {
			prefetchNext(p, g0+count, next)
		}
		a, b, c := p.a.Data[g0*sa:], p.b.Data[g0*sb:], p.c.Data[g0*sc:]
		if count == 1 {
			simdOne(p, a, b, c)
			continue
		}
		for j0 := 0; j0 < n; j0 += simd.Cols {
			bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
			for i0 := 0; i0 < m; i0 += tileRows {
				rows := min(tileRows, m-i0)
				simd.Tile(k, a[i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, p.beta != 0, count, sa, sb, sc)
			}
		}
	}
}

// prefetchNext asks for the operands A and B of matrices i .. i+count-1
// ahead of their use. A broadcast operand (stride 0) is in cache already.
func prefetchNext[T batchlas.Float](p *problem[T], i, count int) {
	for _, op := range [...]batchlas.Batch[T]{p.a, p.b} {
		if op.Stride == 0 {
			continue
		}
		lo, hi := i*op.Stride, min(len(op.Data), (i+count)*op.Stride)
		if hi > lo {
			simd.Prefetch(op.Data[lo:hi], hi-lo, hi-lo, 1, 0)
		}
	}
}
