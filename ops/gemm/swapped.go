package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// swappedTiles multiplies each matrix as its transpose, C^T = op(B)^T *
// op(A)^T, on the simd family's tile. The tile's vectors run down the
// rows of its output, so a C with fewer rows than a vector holds (a
// Kalman gain's H*P, 4 x 64 times 64 x 64) wastes most of each vector
// in simd; here those rows become the tile's columns and C's columns
// fill the vectors. The C^T of a group of matrices are made in a buffer
// on the worker's stack (from C when beta != 0), multiplied as simdGroups
// multiplies a group, and transposed into C; op(B)^T is copied there too
// unless op(B) = B^T, whose columns are already the rows of op(B) (a
// broadcast B is copied once).
//
// Each element sums the same products in the same order as simd (a*b is
// b*a in floating point, and the k slices are the same), so the two agree
// bit for bit, and a shape whose copies do not fit the buffer simply runs
// simd.
func swappedTiles[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	per, shared := swappedElems(p)
	if per+shared > simdCopyElems {
		return simdTiles(ctx, p)
	}
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	return runJob(ctx, runSwapped, p, flops, func(j *job[T]) { j.swPer, j.swShared = per, shared })
}

// swappedChunk runs matrices lo .. hi-1 through a buffer on the worker's
// stack.
func swappedChunk[T batchlas.Float](p *problem[T], per, shared, lo, hi int) {
	// The small buffer for tiny calls: Go clears the array on every call
	// (as simdGroupsCopied).
	if min(hi-lo, swappedGroup(p, per, shared, simdCopyElems))*per+shared <= simdCopySmall {
		var buf [simdCopySmall]T
		swappedRange(p, per, shared, lo, hi, buf[:])
		return
	}
	var buf [simdCopyElems]T
	swappedRange(p, per, shared, lo, hi, buf[:])
}

// swappedElems is the buffer a matrix needs, C^T (n x m) and op(B)^T (n
// x k) unless op(B) = B^T, and what the group shares: op(B)^T of a
// broadcast B.
func swappedElems[T batchlas.Float](p *problem[T]) (per, shared int) {
	per = p.n * p.m
	if !p.transB {
		if p.b.Stride == 0 {
			shared = p.n * p.k
		} else {
			per += p.n * p.k
		}
	}
	return per, shared
}

// swappedGroupBytes bounds what a group's tile pass reads per matrix, its
// C^T and op(B)^T (copied, or B itself when op(B) = B^T): two thirds of a
// core's L1 (48 KiB on Zen 5), so they stay there from the transposes to
// the tile and between the tile's row passes. Groups as big as
// simdGroupSize's share of L2 were slower than one matrix at a time
// (float32 m=4 n=k=32: 242 against 217 us per 1024 matrices on one core);
// these were faster (205). Counting only the copies let a group's B read
// in place outgrow L1 (float32 N T m=4 n=k=64: 2.7 to 3.0 ms against 1.95
// with one matrix per pass). Two thirds of the device's L1D (32 KiB where
// it reports none, the size measured on Zen 5's 48 KiB).
func swappedGroupBytes[T batchlas.Float](p *problem[T]) int {
	if p.l1.Size <= 0 {
		return 32 << 10
	}
	return p.l1.Size * 2 / 3
}

// swappedGroup is the number of matrices a group of swappedRange holds
// with a buffer of size elements, given swappedElems' per and shared: at
// most what fits the buffer, swappedGroupBytes and simdGroupSize's share
// of L2.
func swappedGroup[T batchlas.Float](p *problem[T], per, shared, size int) int {
	// Each matrix's C^T and op(B)^T. A broadcast B is one for the whole
	// group, and A only feeds the tile's broadcasts (m x k, the smallest
	// operand when swapped pays): neither is counted.
	inL1 := p.n * (p.m + p.k)
	if p.b.Stride == 0 {
		inL1 = p.n * p.m
	}
	return max(1, min(simdGroupSize(p), (size-shared)/per, swappedGroupBytes(p)/(elemSize[T]()*inL1)))
}

// swappedRange multiplies matrices lo .. hi-1 of p with buf as scratch
// (per and shared as swappedElems gives them), a group at a time. The
// transposed problem is n x m x k: its op(A) is op(B)^T (the copies in
// buf, or B itself), its op(B) is op(A)^T (A itself, transposed when
// op(A) = A), its C is C^T in buf with n rows.
func swappedRange[T batchlas.Float](p *problem[T], per, shared, lo, hi int, buf []T) {
	m, n, k := p.m, p.n, p.k
	g := swappedGroup(p, per, shared, len(buf))
	ct := buf[:g*n*m]
	at, ldat, sat := p.b.Data, p.b.LD, p.b.Stride // op(B) = B^T: op(B)^T is B
	if !p.transB {
		at, ldat, sat = buf[g*n*m:], n, n*k
		if shared > 0 {
			sat = 0
			simd.Transpose(at, n, p.b.Data, p.b.LD, n, k)
		}
	}
	q := *p
	q.m, q.n = n, m
	q.transA, q.transB = false, !p.transA
	q.a = batchlas.Batch[T]{Rows: n, Cols: k, LD: ldat, Stride: sat}
	q.c = batchlas.Batch[T]{Data: ct, Rows: n, Cols: m, LD: n, Stride: n * m}
	q.stream = false // C^T is a buffer read right back, never streamed
	for g0 := lo; g0 < hi; g0 += g {
		count := min(g, hi-g0)
		if next := min(g, hi-g0-count); next > 0 {
			prefetchNext(p, g0+count, next)
		}
		for i := range count {
			j := g0 + i
			if !p.transB && shared == 0 {
				simd.Transpose(at[i*n*k:], n, p.b.Data[j*p.b.Stride:], p.b.LD, n, k)
			}
			if p.beta != 0 {
				simd.Transpose(ct[i*n*m:], n, p.c.Data[j*p.c.Stride:], p.c.LD, n, m)
			}
		}
		q.b = p.a
		q.b.Data = p.a.Data[g0*p.a.Stride:]
		ag := at
		if p.transB {
			ag = at[g0*sat:]
		}
		simdGroups(&q, ag, ldat, sat, 0, count)
		for i := range count {
			simd.Transpose(p.c.Data[(g0+i)*p.c.Stride:], p.c.LD, ct[i*n*m:], n, m, n)
		}
	}
}
