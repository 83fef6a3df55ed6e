package potrf

import (
	"context"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// tinyPotrf factors matrices of order n <= tinyMax on the stack: each
// matrix's triangle is copied into a fixed 16x16 array as a lower factor
// (Upper is transposed on the way in and out, since U = L^T), factored
// right-looking there, and copied back. The fixed array has a constant
// leading dimension, so the compiler drops the bounds checks of the inner
// loops and the whole working set sits in L1.
func tinyPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	if n > tinyMax { // canRun refuses this; the kernel guards itself too
		return batchlas.Argf("potrf", "a", "tiny kernel holds n <= %d, got n=%d", tinyMax, n)
	}
	return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(_, lo, hi int) {
		var s [tinyMax * tinyMax]T
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			if uplo == batchlas.Lower {
				for c := 0; c < n; c++ {
					copy(s[c*tinyMax+c:c*tinyMax+n], m[c*ld+c:c*ld+n])
				}
			} else {
				for c := 0; c < n; c++ { // U(r, c) -> L(c, r)
					col := m[c*ld : c*ld+c+1]
					for r, v := range col {
						s[(r*tinyMax+c)&(tinyMax*tinyMax-1)] = v
					}
				}
			}
			f := tinyFactor(&s, n)
			info[i] = int32(f)
			// Copy back the columns computed (all of them, or those before
			// the failing one plus its unscaled pivot column), so a failed
			// matrix is left like the other kernels leave it.
			done := n
			if f != 0 {
				done = f
			}
			if uplo == batchlas.Lower {
				for c := 0; c < done; c++ {
					copy(m[c*ld+c:c*ld+n], s[c*tinyMax+c:c*tinyMax+n])
				}
			} else {
				for c := 0; c < n; c++ {
					col := m[c*ld : c*ld+min(c+1, done)]
					for r := range col {
						col[r] = s[(r*tinyMax+c)&(tinyMax*tinyMax-1)]
					}
				}
			}
		}
	})
}

// tinyFactor factors the lower triangle of s (leading dimension tinyMax) in
// place, right-looking: take the pivot, scale the column, subtract its
// outer product from the trailing triangle. It returns 0 or the 1-based
// failing column.
func tinyFactor[T batchlas.Float](s *[tinyMax * tinyMax]T, n int) int {
	const mask = tinyMax*tinyMax - 1
	for j := 0; j < n; j++ {
		d := s[(j*tinyMax+j)&mask]
		if !(d > 0) {
			return j + 1
		}
		d = T(math.Sqrt(float64(d)))
		s[(j*tinyMax+j)&mask] = d
		inv := 1 / d
		col := s[j*tinyMax+j+1 : j*tinyMax+n]
		for r := range col {
			col[r] *= inv
		}
		// Trailing update: column c > j, rows r >= c:
		// s(r, c) -= s(r, j) * s(c, j).
		for c := j + 1; c < n; c++ {
			lc := s[(j*tinyMax+c)&mask]
			src := s[j*tinyMax+c : j*tinyMax+n]
			dst := s[c*tinyMax+c : c*tinyMax+n]
			dst = dst[:len(src)]
			for r, v := range src {
				dst[r] -= v * lc
			}
		}
	}
	return 0
}
