package gemm

import (
	"context"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// simdTiles multiplies each matrix on the operands as they lie in memory with
// register tiles of up to three 64-byte vectors of rows (24 float64 or 48
// float32) by 8 columns, with no packing: the tile of op(B) (k x 8) stays
// in L1 while the row tiles go past it, and each column of A is read as
// whole vectors. op(A) = A^T is first copied transposed (simdCopied); op(B)
// may be either, as B's elements are broadcast one at a time. Edges cost
// nothing extra: the last row vector is masked, and a last block of fewer
// than 8 columns runs the tile's variant for up to 1, 2 or 4 columns. The
// tile is package simd's: AVX-512 on x86-64-v4, its Go twin elsewhere.
//
// Every element of C sums its products in slices of simdSliceDepth, in
// order, whichever path (a group, one matrix, a split matrix) computes it:
// the path a matrix takes depends on how the batch was cut over the
// workers, and its bits must not.
func simdTiles[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	workers := parallel.Workers(ctx)
	if parts := splitParts(ctx, p, workers, flops); parts > 1 {
		return splitColumns(ctx, p, parts, workers, flops, runSIMD, nil)
	}
	return runJob(ctx, runSIMD, p, flops, nil)
}

// simdRange multiplies matrices lo .. hi-1.
func simdRange[T batchlas.Float](p *problem[T], lo, hi int) {
	switch {
	case !p.transA:
		simdGroups(p, p.a.Data[lo*p.a.Stride:], p.a.LD, p.a.Stride, lo, hi)
	case simdCopied(p):
		simdGroupsCopied(p, lo, hi)
	default:
		for i := lo; i < hi; i++ {
			if i+1 < hi {
				prefetchNext(p, i+1, 1)
			}
			simdMatrix(p, p.a.Data[i*p.a.Stride:], p.b.Data[i*p.b.Stride:], p.c.Data[i*p.c.Stride:])
		}
	}
}

// simdPanelBytes bounds the row panel of A that simdOne keeps in cache
// while every column tile of C passes over it: half of a core's L2 (the
// device's; 512 KiB where it reports none, as the 1 MiB L2 the kernel was
// first measured on gave).
func simdPanelBytes[T batchlas.Float](p *problem[T]) int {
	if p.l2.Size <= 0 {
		return 512 << 10
	}
	return p.l2.Size / 2
}

// simdSliceDepth is the depth of the k slices every simd product is summed
// in. Without slices a panel of A that fits simdPanelBytes gets thinner as
// k grows, and at k = 2048 each panel of 24 rows streamed all of B from
// memory (83 GFLOP/s against 150 at k = 1024, float64, two cores).
const simdSliceDepth = 512

// simdCopyElems bounds the copies of op(A) = A^T that simdMatrix and
// simdGroupsCopied make on the worker's stack (128 KiB of float64); a
// group's copies are made at once, so a group of small matrices costs one
// pass of Go code per tile position. simdCopySmall is the buffer of a
// group that needs no more, which is cheaper to clear for a tiny call (a
// 4 x 4 x 4 batch of 64 took 2.1 us with the big buffer, 1.4 without).
const (
	simdCopyElems = 16384
	simdCopySmall = 1024
)

// simdCopied reports whether op(A) of p is copied transposed whole (m*k <=
// simdCopyElems) rather than a row block at a time (simdBlocksCopied): a
// property of the shape (both sum in the same slices).
func simdCopied[T batchlas.Float](p *problem[T]) bool {
	return p.transA && p.m*p.k <= simdCopyElems
}

// simdMatrix multiplies one matrix, whatever op(A) is.
func simdMatrix[T batchlas.Float](p *problem[T], a, b, c []T) {
	switch {
	case !p.transA:
		simdOne(p, a, p.a.LD, b, c)
	case simdCopied(p):
		var buf [simdCopyElems]T
		simd.Transpose(buf[:], p.m, a, p.a.LD, p.m, p.k)
		simdOne(p, buf[:], p.m, b, c)
	default:
		simdBlocksCopied(p, a, b, c)
	}
}

// simdBlocksCopied multiplies one matrix whose op(A) = A^T is too big to
// copy whole: for each k slice, each block of a tile's rows of op(A) is
// copied transposed, the whole slice deep, into a buffer on the stack
// (96 KiB of a 128 KiB array), and the tiles of its row run over every
// column block. The copy covers one slice, so C is read and written once
// per slice as in simdOne. (Copies 64 deep, as simd.Gemm makes them,
// passed over C eight times as often: float64 T N at n = 1024 took 14.8
// ms, and 12.9 with these.)
func simdBlocksCopied[T batchlas.Float](p *problem[T], a, b, c []T) {
	// 128 KiB of storage viewed as T: the buffer holds tileRows x
	// simdSliceDepth for float32 (48 rows) as for float64.
	var raw [simdCopyElems]float64
	buf := unsafe.Slice((*T)(unsafe.Pointer(&raw[0])), len(raw)*8/elemSize[T]())
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	tileRows := 3 * simd.Lanes[T]()
	for l0 := 0; l0 < k; l0 += simdSliceDepth {
		kb := min(simdSliceDepth, k-l0)
		ab, hasBeta := sliceScale(p, l0)
		for i0 := 0; i0 < m; i0 += tileRows {
			rows := min(tileRows, m-i0)
			simd.Transpose(buf, rows, a[i0*p.a.LD+l0:], p.a.LD, rows, kb)
			for j0 := 0; j0 < n; j0 += simd.Cols {
				bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
				simd.Tile(kb, buf, rows, bj[l0*bsl:], bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, hasBeta, 1, 0, 0, 0)
			}
		}
	}
}

// simdOne multiplies one matrix with op(A) = A (lda apart). The tiles run
// by row panels of A of at most simdPanelBytes: each column block of op(B)
// then passes over a panel that stays in L2, where without panels a matrix
// too big for L2 would stream all of A from memory once per 8 columns. The
// order of the tiles changes no sum, so neither does the panel height. A
// product deeper than simdSliceDepth is summed in slices of that depth,
// each added to C (C = alpha*S_1 + beta*C, then C = alpha*S_s + C).
//
// A whose columns fall into too few cache sets (simdConflicts: a leading
// dimension that is a multiple of a power of two such as 4 KiB) is copied
// a panel slice at a time into a tight buffer, and the tiles read the copy:
// in place, the tile's 24 rows of 512 columns share a few L1 sets, and the
// panel a few L2 sets, so A streamed from L3 for every column block (85
// GFLOP/s against 164 at n = 1024 on an Intel Xeon). The copy changes no
// sum.
func simdOne[T batchlas.Float](p *problem[T], a []T, lda int, b, c []T) {
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	tileRows := 3 * simd.Lanes[T]()
	depth := min(k, simdSliceDepth)
	panel := max(tileRows, simdPanelBytes(p)/(elemSize[T]()*depth)/tileRows*tileRows)
	var copyA []T
	if simdConflicts(p, lda, min(panel, m), depth) {
		var buf *simd.Scratch
		buf, copyA = simd.GetScratch[T](min(panel, m) * depth)
		defer simd.PutScratch(buf)
	}
	for l0 := 0; l0 < k; l0 += depth {
		kb := min(depth, k-l0)
		ab, hasBeta := sliceScale(p, l0)
		for r0 := 0; r0 < m; r0 += panel {
			end := min(m, r0+panel)
			ap, ldp := a[l0*lda+r0:], lda
			if copyA != nil {
				ap, ldp = copyA, end-r0
				simd.CopyColumns(ap, ldp, a[l0*lda+r0:], lda, end-r0, kb)
			}
			for j0 := 0; j0 < n; j0 += simd.Cols {
				bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
				bj = bj[l0*bsl:]
				for i0 := r0; i0 < end; i0 += tileRows {
					rows := min(tileRows, end-i0)
					prefetchNextTile(c, ldc, i0, j0, tileRows, simd.Cols, r0, end, n)
					simd.Tile(kb, ap[i0-r0:], ldp, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, hasBeta, 1, 0, 0, 0)
				}
			}
		}
	}
}

// simdCopyMinCols is the fewest columns of C for which simdOne copies a
// conflicting A: the copy reads A once and writes it, which only pays when
// the tiles then read it from cache for several column blocks. The same
// copy in simd.Gemm, which trsm simd and potrf's panels call with 8 or 16
// columns, made potrf float32 n = 1024 half as fast (Zen 5).
const simdCopyMinCols = 4 * simd.Cols

// simdConflicts reports whether simdOne should copy A (lda apart) before
// its tiles read it: the kb columns of one tile's rows would conflict in
// L1, or those of a panel of panelRows rows in L2 (package cache, from
// the device's sizes and ways).
func simdConflicts[T batchlas.Float](p *problem[T], lda, panelRows, kb int) bool {
	if lda <= panelRows { // tight: consecutive columns are consecutive memory
		return false
	}
	if p.n < simdCopyMinCols {
		return false // too few column blocks to pay for the copy
	}
	es := elemSize[T]()
	tileRows := min(3*simd.Lanes[T](), panelRows)
	return p.l1.Conflicts(lda*es, tileRows*es, kb) || p.l2.Conflicts(lda*es, panelRows*es, kb)
}

// sliceScale is alpha and beta for the k slice from l0: the first slice
// scales C by beta (and reads it only when beta != 0), later ones add to
// it.
func sliceScale[T batchlas.Float](p *problem[T], l0 int) (ab [2]T, hasBeta bool) {
	if l0 > 0 {
		return [2]T{p.alpha, 1}, true
	}
	return [2]T{p.alpha, p.beta}, p.beta != 0
}

// prefetchNextTile asks for the C of the tile after the one at (i, j), in
// a walk down rows r0 .. end-1 of tiles rows x cols, then right up to
// column n: the hardware would fetch it only when this tile stores (6% at
// n = 1024, float64).
func prefetchNextTile[T batchlas.Float](c []T, ldc, i, j, rows, cols, r0, end, n int) {
	ni, nj := i+rows, j
	if ni >= end {
		ni, nj = r0, j+cols
	}
	if nj < n {
		simd.Prefetch(c[nj*ldc+ni:], min(rows, end-ni), ldc, min(cols, n-nj), 0)
	}
}

// simdGroupBytes bounds the operands of the matrices that simdGroups runs
// tile by tile together: a quarter of a core's L2 (the device's; 256 KiB
// where it reports none), so a group stays in cache while each of its
// tiles passes over all of its matrices.
func simdGroupBytes[T batchlas.Float](p *problem[T]) int {
	if p.l2.Size <= 0 {
		return 256 << 10
	}
	return p.l2.Size / 4
}

// simdGroupSize is the number of matrices simdGroups runs together. An A
// whose columns conflict in cache (simdConflicts) goes one matrix at a
// time, so that simdOne copies it.
func simdGroupSize[T batchlas.Float](p *problem[T]) int {
	if !p.transA && simdConflicts(p, p.a.LD, p.m, min(p.k, simdSliceDepth)) {
		return 1
	}
	return max(1, simdGroupBytes(p)/(elemSize[T]()*(span(p.a)+span(p.b)+span(p.c))))
}

// simdGroups multiplies matrices lo .. hi-1 with op(A) = A, whose A_i is
// at a[(i-lo)*sa:] (columns lda apart). Each call of the tile runs one
// tile position over a group of matrices (the assembly loops over the
// batch), so a matrix of one tile (m up to 24 or 48, n up to 8) costs one
// pass of the assembly and no Go code. The k == 0 case never comes here
// (Gemm scales C instead).
func simdGroups[T batchlas.Float](p *problem[T], a []T, lda, sa, lo, hi int) {
	m, n, k := p.m, p.n, p.k
	ldc := p.c.LD
	sb, sc := p.b.Stride, p.c.Stride
	tileRows := 3 * simd.Lanes[T]()
	per := simdGroupSize(p)
	for g0 := lo; g0 < hi; g0 += per {
		count := min(per, hi-g0)
		// The next group's A and B, all at once: its fetches then
		// overlap this group's arithmetic (asking for it a part per
		// tile, or for C too, measured slower).
		if next := min(per, hi-g0-count); next > 0 {
			prefetchNext(p, g0+count, next)
		}
		ag, b, c := a[(g0-lo)*sa:], p.b.Data[g0*sb:], p.c.Data[g0*sc:]
		if count == 1 {
			simdOne(p, ag, lda, b, c)
			continue
		}
		for l0 := 0; l0 < k; l0 += simdSliceDepth {
			kb := min(simdSliceDepth, k-l0)
			ab, hasBeta := sliceScale(p, l0)
			for j0 := 0; j0 < n; j0 += simd.Cols {
				bj, bsl, boff, nc := simd.ColumnsOfB(p.transB, b, p.b.LD, n, j0)
				bj = bj[l0*bsl:]
				for i0 := 0; i0 < m; i0 += tileRows {
					rows := min(tileRows, m-i0)
					if p.stream {
						simd.TileStream(kb, ag[l0*lda+i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, count, sa, sb, sc)
						continue
					}
					simd.Tile(kb, ag[l0*lda+i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, hasBeta, count, sa, sb, sc)
				}
			}
		}
	}
}

// simdGroupsCopied is simdGroups for op(A) = A^T copied whole: each group
// of matrices (as many as simdCopyElems holds, or simdGroupSize if fewer)
// has its A_i^T copied to a buffer on this worker's stack, then runs as
// simdGroups on the copies. A broadcast A is copied once.
func simdGroupsCopied[T batchlas.Float](p *problem[T], lo, hi int) {
	mk := p.m * p.k
	per := simdGroupSize(p)
	if p.a.Stride != 0 {
		per = min(per, simdCopyElems/mk)
	}
	if min(per, hi-lo)*mk <= simdCopySmall || (p.a.Stride == 0 && mk <= simdCopySmall) {
		var buf [simdCopySmall]T
		simdGroupsFrom(p, lo, hi, per, buf[:])
		return
	}
	var buf [simdCopyElems]T
	simdGroupsFrom(p, lo, hi, per, buf[:])
}

// simdGroupsFrom runs simdGroupsCopied's groups of per matrices with buf
// for the copies.
func simdGroupsFrom[T batchlas.Float](p *problem[T], lo, hi, per int, buf []T) {
	mk, sa := p.m*p.k, p.a.Stride
	if sa == 0 { // a broadcast A: one copy for every matrix
		simd.Transpose(buf, p.m, p.a.Data, p.a.LD, p.m, p.k)
		simdGroups(p, buf, p.m, 0, lo, hi)
		return
	}
	for g0 := lo; g0 < hi; g0 += per {
		count := min(per, hi-g0)
		if next := min(per, hi-g0-count); next > 0 {
			prefetchNext(p, g0+count, next) // as simdGroups does
		}
		for i := range count {
			simd.Transpose(buf[i*mk:], p.m, p.a.Data[(g0+i)*sa:], p.a.LD, p.m, p.k)
		}
		simdGroups(p, buf, p.m, mk, g0, g0+count)
	}
}

// prefetchNext asks for the operands A and B of matrices i .. i+count-1
// ahead of their use. A broadcast operand (stride 0) is in cache already.
// Nor is an operand whose columns have more than a quarter of their rows
// between them (a view of a larger array) asked for: its whole stride
// would fetch those rows too (16 times the matrix for 64 x 64 views with
// LD 1024: 36 GFLOP/s against 55 with LD 512, Zen 5), and asking for its
// columns one by one still put them into the L1 sets the current matrix
// uses (no prefetch: 98 GFLOP/s against 89 column by column at LD 512,
// 111 against 106 at LD 520).
func prefetchNext[T batchlas.Float](p *problem[T], i, count int) {
	for _, op := range [...]batchlas.Batch[T]{p.a, p.b} {
		if op.Stride == 0 {
			continue
		}
		if (op.LD-op.Rows)*4 > op.Rows {
			continue
		}
		lo, hi := i*op.Stride, min(len(op.Data), (i+count)*op.Stride)
		if hi > lo {
			simd.Prefetch(op.Data[lo:hi], hi-lo, hi-lo, 1, 0)
		}
	}
}
