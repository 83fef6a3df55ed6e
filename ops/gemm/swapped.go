package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// swappedTiles multiplies each matrix as its transpose, C^T = op(B)^T *
// op(A)^T, on the simd family's tile. The tile's vectors run down the
// rows of its output, so a C with fewer rows than a vector holds (a
// Kalman gain's H*P, 4 x 64 times 64 x 64) wastes most of each vector
// in simd; here those rows become the tile's columns and C's columns
// fill the vectors. C^T is made in a buffer on the worker's stack (from C
// when beta != 0) and transposed into C; op(B)^T is copied there too
// unless op(B) = B^T, whose columns are already the rows of op(B).
//
// Each element sums the same products in the same order as simd (a*b is
// b*a in floating point, and the k slices are the same), so the two agree
// bit for bit, and a shape whose copies do not fit the buffer simply runs
// simd.
func swappedTiles[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	need := swappedElems(p)
	if need > simdCopyElems {
		return simdTiles(ctx, p)
	}
	q := swappedView(p)
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	return parallel.For(ctx, p.c.Count, flops, func(_, lo, hi int) {
		// The small buffer for tiny shapes: Go clears the array on
		// every call (as simdGroupsCopied).
		if need <= simdCopySmall {
			var buf [simdCopySmall]T
			swappedRange(p, q, lo, hi, buf[:])
			return
		}
		var buf [simdCopyElems]T
		swappedRange(p, q, lo, hi, buf[:])
	})
}

// swappedElems is the buffer swappedOne needs: C^T (n x m), and op(B)^T
// (n x k) unless op(B) = B^T.
func swappedElems[T batchlas.Float](p *problem[T]) int {
	need := p.n * p.m
	if !p.transB {
		need += p.n * p.k
	}
	return need
}

// swappedView is the transposed product as simdOne reads it: n x m x k,
// op(A') = op(B)^T read from the buffer or B (set per matrix), op(B') =
// op(A)^T (A itself, transposed when op(A) = A), C' = C^T in the buffer
// with n rows.
func swappedView[T batchlas.Float](p *problem[T]) *problem[T] {
	q := *p
	q.m, q.n = p.n, p.m
	q.transA, q.transB = false, !p.transA
	q.b.LD = p.a.LD
	q.c.LD = p.n
	return &q
}

// swappedRange multiplies matrices lo .. hi-1 of p with buf as scratch.
func swappedRange[T batchlas.Float](p, q *problem[T], lo, hi int, buf []T) {
	m, n, k := p.m, p.n, p.k
	ct := buf[:n*m]
	for i := lo; i < hi; i++ {
		if i+1 < hi {
			prefetchNext(p, i+1, 1)
		}
		a, b, c := p.a.Data[i*p.a.Stride:], p.b.Data[i*p.b.Stride:], p.c.Data[i*p.c.Stride:]
		at, ldat := b, p.b.LD // op(B) = B^T: op(B)^T is B
		if !p.transB {
			at, ldat = buf[n*m:n*m+n*k], n
			simd.Transpose(at, n, b, p.b.LD, n, k)
		}
		if p.beta != 0 {
			simd.Transpose(ct, n, c, p.c.LD, n, m)
		}
		simdOne(q, at, ldat, a, ct)
		simd.Transpose(c, p.c.LD, ct, n, m, n)
	}
}
