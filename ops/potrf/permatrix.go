package potrf

import (
	"context"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// perMatrix runs a lower-triangle kernel (factor, with panel columns for
// lpanel) on every matrix of a, one worker per matrix at a time. The lower
// kernels sweep contiguous columns; an upper triangle's rows are strided,
// so for Upper each matrix's triangle is transposed into the worker's
// slice of ws (U^T is the lower factor, stored with ld = scratchLD(n)),
// factored there and transposed back: O(n^2) copying for O(n^3) work,
// against strided dot products over the whole update. A Lower matrix is
// factored where it lies unless its columns conflict in cache
// (copiesLower); then it goes through a copy in the same way. ws holds
// scratchSize(n) elements per worker where a matrix is copied (nil:
// allocated here) and is not read otherwise. Only the triangle of each
// scratch slice is written before it is read.
func perMatrix[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32, factor lowerFactor, panel int) error {
	n := a.Rows
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.uplo, j.a, j.info, j.factor, j.panel = uplo, a, info, factor, panel
	if uplo == batchlas.Lower && !copiesLower[T](opkit.DeviceFrom(ctx), a.LD, n) {
		j.kernel = runLowerInPlace
		return parallel.Run(ctx, a.Count, flopsPerMatrix(n), j)
	}
	nn := scratchSize[T](n)
	if len(ws) < nn {
		// nil (the caller left it to us), or not even one worker's
		// slot: from the free list, since a fresh buffer costs its page
		// faults and zeroing on every call.
		s, buf := simd.GetScratch[T](parallel.Workers(ctx) * nn)
		defer simd.PutScratch(s)
		ws = buf
	}
	// At most one worker per slot of ws, so (w+1)*nn <= len(ws).
	j.kernel, j.ws, j.nn = runCopied, ws, nn
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(n), len(ws)/nn, j)
}

// scratchLD is the leading dimension of the per-worker copy of a matrix of
// order n (cache.PaddedLD): n itself would put the copy's columns 4 KiB
// apart at n = 1024 float32, where the panels' products read a few rows of
// every column to their left.
func scratchLD[T batchlas.Float](n int) int {
	var z T
	return cache.PaddedLD(n, int(unsafe.Sizeof(z)))
}

// scratchSize is the per-worker scratch perMatrix needs for a copied
// matrix of order n (Upper always, Lower where copiesLower).
func scratchSize[T batchlas.Float](n int) int {
	return parallel.Pad((n-1)*scratchLD[T](n) + n)
}

// copiesLower reports whether perMatrix factors a Lower matrix of order n
// with leading dimension ld through a copy with scratchLD: where its
// columns would conflict in device d's L1 or L2 (package cache), as the
// tight columns of order 1024 float32 do (potrf lpanel n = 1024 ran at
// 0.76-0.89 of its speed with ld + 8 on a Zen 5). The copies cost 2n^2
// moves for n^3/3 flops, so orders under 256 never copy.
func copiesLower[T batchlas.Float](d *sel.Device, ld, n int) bool {
	if n < 256 {
		return false
	}
	var z T
	es := int(unsafe.Sizeof(z))
	return cache.L1D(d).Conflicts(ld*es, cache.Line, n) || cache.L2(d).Conflicts(ld*es, cache.Line, n)
}

// copyLower copies the lower triangle of the n x n matrix src (leading
// dimension lds), diagonal included, to dst (leading dimension ldd).
func copyLower[T batchlas.Float](dst []T, ldd int, src []T, lds, n int) {
	for c := range n {
		copy(dst[c*ldd+c:c*ldd+n], src[c*lds+c:c*lds+n])
	}
}

// upperToLower writes the transpose of the upper triangle of m (leading
// dimension ld) into the lower triangle of dst (leading dimension n): row r
// of U, strided in m, becomes the contiguous column r of dst. Four rows go
// at a time, so each column of m is read as one short contiguous piece and
// each of the four destination columns is written sequentially.
func upperToLower[T batchlas.Float](dst []T, ldd int, m []T, ld, n int) {
	r0 := 0
	for ; r0+4 <= n; r0 += 4 {
		d0 := dst[r0*ldd : r0*ldd+n]
		d1 := dst[(r0+1)*ldd : (r0+1)*ldd+n]
		d2 := dst[(r0+2)*ldd : (r0+2)*ldd+n]
		d3 := dst[(r0+3)*ldd : (r0+3)*ldd+n]
		// The 4x4 diagonal block: U(r, c) for r0 <= r <= c < r0+4.
		for c := r0; c < r0+4; c++ {
			for r := r0; r <= c; r++ {
				dst[r*ldd+c] = m[c*ld+r]
			}
		}
		for c := r0 + 4; c < len(d0); c++ {
			u := m[c*ld+r0 : c*ld+r0+4]
			d0[c], d1[c], d2[c], d3[c] = u[0], u[1], u[2], u[3]
		}
	}
	for r := r0; r < n; r++ {
		for c := r; c < n; c++ {
			dst[r*ldd+c] = m[c*ld+r]
		}
	}
}

// lowerToUpper is upperToLower's inverse.
func lowerToUpper[T batchlas.Float](m []T, ld int, src []T, lds, n int) {
	r0 := 0
	for ; r0+4 <= n; r0 += 4 {
		s0 := src[r0*lds : r0*lds+n]
		s1 := src[(r0+1)*lds : (r0+1)*lds+n]
		s2 := src[(r0+2)*lds : (r0+2)*lds+n]
		s3 := src[(r0+3)*lds : (r0+3)*lds+n]
		for c := r0; c < r0+4; c++ {
			for r := r0; r <= c; r++ {
				m[c*ld+r] = src[r*lds+c]
			}
		}
		for c := r0 + 4; c < len(s0); c++ {
			u := m[c*ld+r0 : c*ld+r0+4]
			u[0], u[1], u[2], u[3] = s0[c], s1[c], s2[c], s3[c]
		}
	}
	for r := r0; r < n; r++ {
		for c := r; c < n; c++ {
			m[c*ld+r] = src[r*lds+c]
		}
	}
}
