package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// tinyLD is the leading dimension of the tiny kernel's stack array.
const tinyLD = tinyMax

// tinyMask keeps stack-array indices provably in range, so the compiler
// drops their bounds checks.
const tinyMask = tinyLD*tinyLD - 1

// tinyMat is one matrix's working copy, column-major with leading
// dimension tinyLD.
type tinyMat[T batchlas.Float] [tinyLD * tinyLD]T

// tinyGetrf factors matrices of order n <= tinyMax in a stack array: each
// matrix is copied into a fixed 16x16 array, factored there right-looking
// (getf2's steps, in the same order, so the result is the unblocked
// kernel's) and copied back. The constant leading dimension and masked
// indices let the compiler drop the bounds checks and index arithmetic
// that dominate a small factorisation.
func tinyGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	n := a.Rows
	if n > tinyMax { // canRun refuses this; the kernel guards itself too
		return opkit.Argf(opName, "a", "tiny kernel holds n <= %d, got n=%d", tinyMax, n)
	}
	return runJob(ctx, runTiny, a, ipiv, info)
}

// tinyRange factors matrices [lo, hi) of a.
func tinyRange[T batchlas.Float](a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32, small T, lo, hi int) {
	n, ld, stride := a.Rows, a.LD, a.Stride
	var s tinyMat[T]
	for i := lo; i < hi; i++ {
		m := a.Data[i*stride : i*stride+(n-1)*ld+n]
		for c := 0; c < n; c++ {
			copy(s[c*tinyLD:c*tinyLD+n], m[c*ld:c*ld+n])
		}
		tinyFactor(&s, n, pivots(ipiv, i, n), small)
		for c := 0; c < n; c++ {
			copy(m[c*ld:c*ld+n], s[c*tinyLD:c*tinyLD+n])
		}
		info[i] = lu.DiagInfo(m, ld, n)
	}
}

// tinyFactor is getf2 over all n columns of s, full rows swapped.
func tinyFactor[T batchlas.Float](s *tinyMat[T], n int, piv []int32, small T) {
	piv = piv[:n]
	for j := range piv {
		cj := j * tinyLD
		p, best := j, lu.Abs(s[(cj+j)&tinyMask])
		for i := j + 1; i < n; i++ {
			if v := lu.Abs(s[(cj+i)&tinyMask]); v > best {
				p, best = i, v
			}
		}
		piv[j] = int32(p)
		if p != j {
			for k := 0; k < n; k++ {
				o := k * tinyLD
				s[(o+j)&tinyMask], s[(o+p)&tinyMask] = s[(o+p)&tinyMask], s[(o+j)&tinyMask]
			}
		}
		if pv := s[(cj+j)&tinyMask]; pv != 0 {
			if lu.Abs(pv) >= small {
				r := 1 / pv
				for i := j + 1; i < n; i++ {
					s[(cj+i)&tinyMask] *= r
				}
			} else {
				for i := j + 1; i < n; i++ {
					s[(cj+i)&tinyMask] /= pv
				}
			}
		}
		for k := j + 1; k < n; k++ {
			ck := k * tinyLD
			u := s[(ck+j)&tinyMask]
			for i := j + 1; i < n; i++ {
				s[(ck+i)&tinyMask] -= s[(cj+i)&tinyMask] * u
			}
		}
	}
}
