package lanes

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// LU factors a group of Lanes[T]() n x n matrices interleaved in a by
// Gaussian elimination with partial pivoting, A = P*L*U, as getf2 does it
// (right-looking; the pivot the first row of largest magnitude in its
// column, a NaN never chosen over a number; full rows swapped; the column
// below the pivot multiplied by the pivot's reciprocal, or divided by the
// pivot when it is below small, or left when it is zero), and solves
// A*X = B for the n x nrhs right-hand sides interleaved in b (same
// layout); the columns of both are ld >= n vectors apart (GroupLD). L (unit diagonal, not stored) and U overwrite a,
// X overwrites b, and piv[j*Lanes+l] holds the row (a number of T, 0-based)
// swapped with row j of lane l. A singular lane is factored to the end;
// its solve divides by a zero pivot and its b is garbage: the caller
// checks the diagonal. The arithmetic is that of getrf's unblocked kernel
// and of the per-column triangular solves (no fused multiply-add), so the
// factors and solutions are theirs bit for bit. The AVX-512 assembly
// updates by panels of four columns and solves four right-hand sides at a
// time (gen.go), the AVX2 one goes by columns, a chunk of rows in
// registers (gen_avx2.go); each entry's operations are still getf2's, in
// getf2's order.
func LU[T batchlas.Float](a, b, piv []T, n, nrhs, ld int, small T) {
	if n == 0 {
		return
	}
	L := Lanes[T]()
	a, piv = a[:((n-1)*ld+n)*L], piv[:n*L]
	if nrhs > 0 {
		b = b[:((nrhs-1)*ld+n)*L]
	}
	k := [3]T{small, T(math.Copysign(0, -1)), 1}
	luRun(a, b, piv, n, nrhs, ld, &k)
}

// GroupLD is the column stride, in vectors, to give a group of order n:
// n rounded up to odd. A power-of-two stride would map a row's entries
// in every column to a handful of L1 sets (32 of them at n = 32), and the
// kernels' row passes (pivot swaps, the transposed solves) would miss on
// every access.
func GroupLD(n int) int { return n | 1 }

// luGo is the assembly's twin, lane by lane, the same operations in the
// same order; products are converted to T before they are subtracted so
// that the compiler cannot fuse them.
func luGo[T batchlas.Float](a, b, piv []T, n, nrhs, ld int, k *[3]T) {
	L := Lanes[T]()
	small := k[0]
	col := ld * L
	for l := 0; l < L; l++ {
		at := func(x []T, r, c int) *T { return &x[c*col+r*L+l] }
		for j := 0; j < n; j++ {
			p, best := j, abs(*at(a, j, j))
			for i := j + 1; i < n; i++ {
				if v := abs(*at(a, i, j)); v > best {
					p, best = i, v
				}
			}
			piv[j*L+l] = T(p)
			if p != j {
				for c := 0; c < n; c++ {
					x, y := at(a, j, c), at(a, p, c)
					*x, *y = *y, *x
				}
				for c := 0; c < nrhs; c++ {
					x, y := at(b, j, c), at(b, p, c)
					*x, *y = *y, *x
				}
			}
			if pv := *at(a, j, j); pv != 0 {
				if abs(pv) >= small {
					r := 1 / pv
					for i := j + 1; i < n; i++ {
						*at(a, i, j) = T(*at(a, i, j) * r)
					}
				} else {
					for i := j + 1; i < n; i++ {
						*at(a, i, j) /= pv
					}
				}
			}
			for c := j + 1; c < n; c++ {
				u := *at(a, j, c)
				for i := j + 1; i < n; i++ {
					*at(a, i, c) -= T(*at(a, i, j) * u)
				}
			}
		}
		for c := 0; c < nrhs; c++ {
			for kk := 0; kk < n-1; kk++ {
				x := *at(b, kk, c)
				for i := kk + 1; i < n; i++ {
					*at(b, i, c) -= T(*at(a, i, kk) * x)
				}
			}
			for kk := n - 1; kk >= 0; kk-- {
				x := *at(b, kk, c) / *at(a, kk, kk)
				*at(b, kk, c) = x
				for i := 0; i < kk; i++ {
					*at(b, i, c) -= T(*at(a, i, kk) * x)
				}
			}
		}
	}
}
