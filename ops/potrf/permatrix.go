package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// lowerKernel factors the lower triangle of one n x n column-major matrix
// with leading dimension ld in place and returns its info.
type lowerKernel[T batchlas.Float] func(m []T, ld, n int) int

// perMatrix runs a lower-triangle kernel on every matrix of a, one worker
// per matrix at a time. The lower kernels sweep contiguous columns; an
// upper triangle's rows are strided, so for Upper each matrix's triangle is
// transposed into the worker's n*n slice of ws (U^T is the lower factor,
// stored with ld = n), factored there and transposed back: O(n^2) copying
// for O(n^3) work, against strided dot products over the whole update.
// ws holds upperScratch(n) elements per worker for Upper (nil: allocated
// here) and is not read for Lower. Only the triangle of each scratch slice
// is written before it is read.
func perMatrix[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32, factor lowerKernel[T]) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	if uplo == batchlas.Lower {
		return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				info[i] = int32(factor(a.Data[i*stride:i*stride+(n-1)*ld+n], ld, n))
			}
		})
	}
	nn := upperScratch(n)
	if ws == nil {
		ws = make([]T, parallel.Workers()*nn)
	}
	return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(w, lo, hi int) {
		var buf []T
		if end := (w + 1) * nn; end <= len(ws) {
			buf = ws[w*nn : end]
		} else {
			// GOMAXPROCS grew since the workspace was sized.
			buf = make([]T, nn)
		}
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			upperToLower(buf, m, ld, n)
			info[i] = int32(factor(buf, n, n))
			lowerToUpper(m, ld, buf, n)
		}
	})
}

// upperScratch is the per-worker scratch perMatrix needs for Upper.
func upperScratch(n int) int { return n * n }

// upperToLower writes the transpose of the upper triangle of m (leading
// dimension ld) into the lower triangle of dst (leading dimension n):
// row r of U, strided in m, becomes the contiguous column r of dst.
func upperToLower[T batchlas.Float](dst, m []T, ld, n int) {
	for c := 0; c < n; c++ {
		col := m[c*ld : c*ld+c+1] // U(0..c, c)
		for r, v := range col {
			dst[r*n+c] = v
		}
	}
}

// lowerToUpper is upperToLower's inverse.
func lowerToUpper[T batchlas.Float](m []T, ld int, src []T, n int) {
	for c := 0; c < n; c++ {
		col := m[c*ld : c*ld+c+1]
		for r := range col {
			col[r] = src[r*n+c]
		}
	}
}
