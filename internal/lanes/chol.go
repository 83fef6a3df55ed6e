package lanes

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// Chol factors a group of Lanes[T]() symmetric positive definite n x n
// matrices interleaved in a as L*L^T (right-looking, the column below each
// pivot multiplied by its reciprocal as LAPACK's xPOTF2 does, the trailing
// updates as fused multiply-adds) and
// solves A*X = B for the n x nrhs right-hand sides interleaved in b; the
// columns of both are ld >= n vectors apart (GroupLD). Only
// one triangle is read and written: lower reads and writes L in the lower
// triangle; otherwise U = L^T is read from and written to the upper one.
// info[l] gets lane l's LAPACK info as a number of T: 0, or the column
// (from 1) of the first pivot that is not > 0 (NaN included); such a lane
// is frozen there (nothing more of its matrix is written) and its b is
// garbage: the caller keeps its own copy. The assembly factors by panels
// of four columns and solves four right-hand sides at a time (gen.go), each
// entry's operations still those of cholGo in cholGo's order: the same bits.
func Chol[T batchlas.Float](lower bool, a, b []T, n, nrhs, ld int, info []T) {
	L := Lanes[T]()
	info = info[:L]
	if n == 0 {
		clear(info)
		return
	}
	a = a[:((n-1)*ld+n)*L]
	if nrhs > 0 {
		b = b[:((nrhs-1)*ld+n)*L]
	}
	// Element (i, j) of L is vector i*rs + j*cs.
	rs, cs := 1, ld
	if !lower {
		rs, cs = ld, 1
	}
	cholRun(a, b, n, nrhs, rs, cs, ld, info)
}

// cholGo is the assembly's twin, lane by lane.
func cholGo[T batchlas.Float](a, b []T, n, nrhs, rs, cs, ld int, info []T) {
	cholFinish(a, b, n, nrhs, rs, cs, ld, info, 0, Lanes[T](), 0)
}

// cholFinish is cholGo on lanes lo..hi-1 of a group whose first j0
// columns are factored already, left-looking (final, as cholGo leaves
// them) and whose other columns and b are as they were: the updates of
// those columns are applied to the others first, each element's in
// cholGo's order, then cholGo's loop goes on from column j0. The AVX2
// kernels stop so at the first pivot of a half that fails.
func cholFinish[T batchlas.Float](a, b []T, n, nrhs, rs, cs, ld int, info []T, lo, hi, j0 int) {
	L := Lanes[T]()
	for l := lo; l < hi; l++ {
		at := func(i, j int) *T { return &a[(i*rs+j*cs)*L+l] }
		info[l] = 0
		for j := 0; j < j0; j++ {
			for k := j0; k < n; k++ {
				x := *at(k, j)
				for i := k; i < n; i++ {
					*at(i, k) = fma.Of(-*at(i, j), x, *at(i, k))
				}
			}
		}
		for j := j0; j < n; j++ {
			d := *at(j, j)
			if !(d > 0) {
				info[l] = T(j + 1)
				break
			}
			d = sqrt(d)
			*at(j, j) = d
			r := 1 / d
			for i := j + 1; i < n; i++ {
				*at(i, j) *= r
			}
			for k := j + 1; k < n; k++ {
				x := *at(k, j)
				for i := k; i < n; i++ {
					*at(i, k) = fma.Of(-*at(i, j), x, *at(i, k))
				}
			}
		}
		for c := 0; c < nrhs; c++ {
			bc := b[c*ld*L:]
			for j := 0; j < n; j++ {
				y := bc[j*L+l] / *at(j, j)
				bc[j*L+l] = y
				for i := j + 1; i < n; i++ {
					bc[i*L+l] = fma.Of(-*at(i, j), y, bc[i*L+l])
				}
			}
			for j := n - 1; j >= 0; j-- {
				x := bc[j*L+l] / *at(j, j)
				bc[j*L+l] = x
				for i := j - 1; i >= 0; i-- {
					bc[i*L+l] = fma.Of(-*at(j, i), x, bc[i*L+l])
				}
			}
		}
	}
}
