package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// perMatrix runs a lower-triangle kernel (factor, with panel columns for
// lpanel) on every matrix of a, one worker per matrix at a time. The lower
// kernels sweep contiguous columns; an upper triangle's rows are strided,
// so for Upper each matrix's triangle is transposed into the worker's n*n
// slice of ws (U^T is the lower factor, stored with ld = n), factored
// there and transposed back: O(n^2) copying for O(n^3) work, against
// strided dot products over the whole update. ws holds upperScratch(n)
// elements per worker for Upper (nil: allocated here) and is not read for
// Lower. Only the triangle of each scratch slice is written before it is
// read.
func perMatrix[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32, factor lowerFactor, panel int) error {
	n := a.Rows
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.uplo, j.a, j.info, j.factor, j.panel = uplo, a, info, factor, panel
	if uplo == batchlas.Lower {
		j.kernel = runLowerInPlace
		return parallel.Run(ctx, a.Count, flopsPerMatrix(n), j)
	}
	nn := upperScratch(n)
	if len(ws) < nn {
		// nil (the caller left it to us), or not even one worker's slot.
		ws = make([]T, parallel.Workers(ctx)*nn)
	}
	// At most one worker per slot of ws, so (w+1)*nn <= len(ws).
	j.kernel, j.ws, j.nn = runUpperCopied, ws, nn
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(n), len(ws)/nn, j)
}

// upperScratch is the per-worker scratch perMatrix needs for Upper.
func upperScratch(n int) int { return parallel.Pad(n * n) }

// upperToLower writes the transpose of the upper triangle of m (leading
// dimension ld) into the lower triangle of dst (leading dimension n): row r
// of U, strided in m, becomes the contiguous column r of dst. Four rows go
// at a time, so each column of m is read as one short contiguous piece and
// each of the four destination columns is written sequentially.
func upperToLower[T batchlas.Float](dst, m []T, ld, n int) {
	r0 := 0
	for ; r0+4 <= n; r0 += 4 {
		d0 := dst[r0*n : r0*n+n]
		d1 := dst[(r0+1)*n : (r0+1)*n+n]
		d2 := dst[(r0+2)*n : (r0+2)*n+n]
		d3 := dst[(r0+3)*n : (r0+3)*n+n]
		// The 4x4 diagonal block: U(r, c) for r0 <= r <= c < r0+4.
		for c := r0; c < r0+4; c++ {
			for r := r0; r <= c; r++ {
				dst[r*n+c] = m[c*ld+r]
			}
		}
		for c := r0 + 4; c < len(d0); c++ {
			u := m[c*ld+r0 : c*ld+r0+4]
			d0[c], d1[c], d2[c], d3[c] = u[0], u[1], u[2], u[3]
		}
	}
	for r := r0; r < n; r++ {
		for c := r; c < n; c++ {
			dst[r*n+c] = m[c*ld+r]
		}
	}
}

// lowerToUpper is upperToLower's inverse.
func lowerToUpper[T batchlas.Float](m []T, ld int, src []T, n int) {
	r0 := 0
	for ; r0+4 <= n; r0 += 4 {
		s0 := src[r0*n : r0*n+n]
		s1 := src[(r0+1)*n : (r0+1)*n+n]
		s2 := src[(r0+2)*n : (r0+2)*n+n]
		s3 := src[(r0+3)*n : (r0+3)*n+n]
		for c := r0; c < r0+4; c++ {
			for r := r0; r <= c; r++ {
				m[c*ld+r] = src[r*n+c]
			}
		}
		for c := r0 + 4; c < len(s0); c++ {
			u := m[c*ld+r0 : c*ld+r0+4]
			u[0], u[1], u[2], u[3] = s0[c], s1[c], s2[c], s3[c]
		}
	}
	for r := r0; r < n; r++ {
		for c := r; c < n; c++ {
			m[c*ld+r] = src[r*n+c]
		}
	}
}
