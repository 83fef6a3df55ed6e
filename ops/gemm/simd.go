package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// simdTiles multiplies each matrix on the operands as they lie in memory with
// register tiles of up to three 64-byte vectors of rows (24 float64 or 48
// float32) by 8 columns, with no packing: the tile of op(B) (k x 8) stays
// in L1 while the row tiles go past it, and each column of A is read as
// whole vectors. op(A) = A^T is first copied transposed (simdTransposed);
// op(B) may be either, as B's elements are broadcast one at a time. Edges
// cost nothing extra: the last row vector is masked, and a last block of
// fewer than 8 columns repeats its last column of B and stores only the
// columns it has. The tile is package simd's: AVX-512 on x86-64-v4, its Go
// twin elsewhere.
//
// Every element of C sums its products in slices of simdSliceDepth, in
// order, whichever path (a group, one matrix, a split matrix) computes it:
// the path a matrix takes depends on how the batch was cut over the
// workers, and its bits must not.
func simdTiles[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	workers := parallel.Workers(ctx)
	if parts := splitParts(ctx, p, workers, flops); parts > 1 {
		return splitColumns(ctx, p, parts, workers, flops, func(_ int, sub *problem[T], a, b, c []T) {
			var buf [simdTransElems]T
			simdOne(sub, a, b, c, buf[:])
		})
	}
	return parallel.For(ctx, p.c.Count, flops, func(_, lo, hi int) {
		simdGroups(p, lo, hi)
	})
}

// simdPanelBytes bounds the row panel of A that simdOne keeps in cache
// while every column tile of C passes over it: about half of a core's L2.
const simdPanelBytes = 512 << 10

// simdSliceDepth is the depth of the k slices every simd product is summed
// in. Without slices a panel of A that fits simdPanelBytes gets thinner as
// k grows, and at k = 2048 each panel of 24 rows streamed all of B from
// memory (83 GFLOP/s against 150 at k = 1024, float64, two cores).
const simdSliceDepth = 512

// simdTransElems bounds op(A) = A^T copies that simdOne and simdGroups make
// on the worker's stack: 32 KiB of float64. A matrix whose op(A) is bigger
// runs simd.Gemm, which copies one row block at a time.
const simdTransElems = 4096

// simdTransposed reports whether op(A) of p is copied transposed whole
// (m*k <= simdTransElems) rather than a row block at a time: a property of
// the shape, so every path sums the same way.
func simdTransposed[T batchlas.Float](p *problem[T]) bool {
	return p.transA && p.m*p.k <= simdTransElems
}

// transposeA writes op(A) = A^T (m x k; A is k x m with leading dimension
// lda) to dst, column-major with leading dimension m. Four rows of op(A)
// at a time, so each store writes four neighbours.
func transposeA[T batchlas.Float](dst, a []T, lda, m, k int) {
	dst = dst[:m*k]
	i := 0
	for ; i+4 <= m; i += 4 {
		r0, r1, r2, r3 := a[i*lda:][:k], a[(i+1)*lda:][:k], a[(i+2)*lda:][:k], a[(i+3)*lda:][:k]
		for l := range k {
			d := dst[l*m+i:][:4]
			d[0], d[1], d[2], d[3] = r0[l], r1[l], r2[l], r3[l]
		}
	}
	for ; i < m; i++ {
		for l, v := range a[i*lda:][:k] {
			dst[l*m+i] = v
		}
	}
}

// simdOne multiplies one matrix. With op(A) = A the tiles run by row
// panels of A of at most simdPanelBytes: each column block of op(B) then
// passes over a panel that stays in L2, where without panels a matrix too
// big for L2 would stream all of A from memory once per 8 columns. The
// order of the tiles changes no sum, so neither does the panel height. A
// product deeper than simdSliceDepth is summed in slices of that depth,
// each added to C (C = alpha*S_1 + beta*C, then C = alpha*S_s + C). A
// small op(A) = A^T is copied to buf (simdTransElems long) and runs the
// same way; a bigger one runs simd.Gemm.
func simdOne[T batchlas.Float](p *problem[T], a, b, c, buf []T) {
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	if p.transA {
		if !simdTransposed(p) {
			simd.Gemm(true, p.transB, m, n, k, p.alpha, a, lda, b, p.b.LD, p.beta, c, ldc)
			return
		}
		transposeA(buf, a, lda, m, k)
		a, lda = buf, m
	}
	tileRows := 3 * simd.Lanes[T]()
	depth := min(k, simdSliceDepth)
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
					// The next tile's C, which the hardware would
					// fetch only when this tile stores (6% at
					// n = 1024, float64).
					ni, nj := i0+tileRows, j0
					if ni >= end {
						ni, nj = r0, j0+simd.Cols
					}
					if nj < n {
						simd.Prefetch(c[nj*ldc+ni:], min(tileRows, end-ni), ldc, min(simd.Cols, n-nj), 0)
					}
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

// simdGroups multiplies matrices lo .. hi-1. Each call of the tile runs
// one tile position over a group of matrices (the assembly loops over the
// batch), so a matrix of one tile (m up to 24 or 48, n up to 8) costs one
// pass of the assembly and no Go code. A small op(A) = A^T is copied
// transposed for the whole group first, into a buffer on this worker's
// stack; a bigger one runs a matrix at a time (simdOne). The k == 0 case
// never comes here (Gemm scales C instead).
func simdGroups[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	sa, sb, sc := p.a.Stride, p.b.Stride, p.c.Stride
	tileRows := 3 * simd.Lanes[T]()
	per := max(1, simdGroupBytes/(elemSize[T]()*(span(p.a)+span(p.b)+span(p.c))))
	var buf [simdTransElems]T
	trans := simdTransposed(p)
	if trans && sa != 0 {
		// A broadcast A needs one copy for any group.
		per = min(per, simdTransElems/(m*k))
	}
	for g0 := lo; g0 < hi; g0 += per {
		count := min(per, hi-g0)
		// The next group's A and B, all at once: its fetches then
		// overlap this group's arithmetic (asking for it a part per
		// tile, or for C too, measured slower).
		if next := min(per, hi-g0-count); next > 0 {
			prefetchNext(p, g0+count, next)
		}
		a, b, c := p.a.Data[g0*sa:], p.b.Data[g0*sb:], p.c.Data[g0*sc:]
		if count == 1 || (p.transA && !trans) {
			for i := range count {
				simdOne(p, a[i*sa:], b[i*sb:], c[i*sc:], buf[:])
			}
			continue
		}
		ga, glda, gsa := a, lda, sa
		if trans {
			ga, glda, gsa = buf[:], m, m*k
			if sa == 0 {
				gsa = 0
			}
			for i := range count {
				transposeA(buf[i*gsa:], a[i*sa:], lda, m, k)
				if gsa == 0 {
					break // one copy serves a broadcast A
				}
			}
		}
		for l0 := 0; l0 < k; l0 += simdSliceDepth {
			kb := min(simdSliceDepth, k-l0)
			ab, hasBeta := [2]T{p.alpha, p.beta}, p.beta != 0
			if l0 > 0 {
				ab[1], hasBeta = 1, true
			}
			for j0 := 0; j0 < n; j0 += simd.Cols {
				bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
				bj = bj[l0*bsl:]
				for i0 := 0; i0 < m; i0 += tileRows {
					rows := min(tileRows, m-i0)
					simd.Tile(kb, ga[l0*glda+i0:], glda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, hasBeta, count, gsa, sb, sc)
				}
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
