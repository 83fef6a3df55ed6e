//go:build !novendor

package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 LU, and converting through float64 would make "vendor" a
// different algorithm at a different precision. float32 calls run natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorGetrf calls gonum's Dgetrf on each matrix, parallel over the batch.
// gonum is row-major: a column-major matrix read as row-major is its
// transpose, and LU of A^T is not LU of A (it would pivot columns), so each
// matrix is transposed into the worker's n x n slice of ws (row-major A),
// factored there and transposed back: O(n^2) copying for O(n^3) work.
//
// gonum's Dgetf2 follows the rules every kernel here follows (its Idamax is
// BLAS's: the first largest |x|, a NaN only when first; no interchange or
// scaling at a zero pivot; scaling by the reciprocal unless the pivot is
// below the safe minimum), so its pivots and info agree with the native
// kernels', with one exception: where the pivot is below the safe minimum
// (subnormal) or NaN, gonum v0.17's Dgetf2 means to divide the column by
// it but its loop divides only the first entry below the pivot, again and
// again, and leaves the rest unscaled. Such a pivot stays on the factored
// diagonal, so a matrix with one is detected afterwards and factored
// again, from its original still in a (gonum worked on the copy), by this
// package's getf2: the unblocked kernel's code. A matrix with an Inf or
// NaN entry goes to getf2 without gonum: gonum's BLAS skips the products
// with zero that IEEE arithmetic (and LAPACK on reference BLAS) would make
// NaN. Dgetrf's boolean result counts
// only exact zero pivots, so info is read from the diagonal here as for
// every kernel (diagInfo), which also counts a NaN pivot.
func vendorGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	buf, _ := any(ws).([]float64)
	n := a.Rows
	nn := vendorScratch(n)
	if len(buf) < nn {
		// nil (the caller left it to us), or not even one worker's slot.
		buf = make([]float64, parallel.Workers(ctx)*nn)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.info, j.buf, j.nn = runVendor, a, ipiv, info, buf, nn
	// At most one worker per slot of buf, so (w+1)*nn <= len(buf).
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(n), len(buf)/nn, j)
}

// vendorPivots recycles the []int pivot slices gonum's Dgetrf takes, one
// per chunk in flight, so that the vendor kernel allocates nothing of its
// own with the workspace supplied.
var vendorPivots = parallel.NewFreeList[*[]int]()

// vendor factors matrices [lo, hi) of a (float64) with gonum on worker
// w's copy.
func (j *job[T]) vendor(w, lo, hi int) {
	data, _ := any(j.a.Data).([]float64)
	a, ipiv, info, nn := j.a, j.ipiv, j.info, j.nn
	n, ld, stride := a.Rows, a.LD, a.Stride
	impl := gonum.Implementation{}
	small := lu.SafeMin[float64]()
	t := j.buf[w*nn : w*nn+n*n]
	pp, ok := vendorPivots.Get()
	if !ok || cap(*pp) < n {
		pp = new([]int)
		*pp = make([]int, n)
	}
	defer vendorPivots.Put(pp)
	p := (*pp)[:n]
	for i := lo; i < hi; i++ {
		m := data[i*stride : i*stride+(n-1)*ld+n]
		var nonFinite float64 // NaN once an entry is Inf or NaN
		for c := 0; c < n; c++ {
			for r, v := range m[c*ld : c*ld+n] {
				t[r*n+c] = v
				nonFinite += v - v
			}
		}
		piv := pivots(ipiv, i, n)
		if nonFinite != nonFinite {
			// gonum's Dscal writes zeros for a zero factor where
			// LAPACK's multiplies (0*Inf is NaN), and its rank-1
			// update skips zero entries: below an infinite pivot, or
			// with an Inf beside a zero, its factor is not LAPACK's.
			// This package's getf2 is.
			lu.Getf2(m, ld, n, 0, n, 0, n, piv, small)
			info[i] = lu.DiagInfo(m, ld, n)
			continue
		}
		impl.Dgetrf(n, n, t, n, p)
		if smallPivot(t, n, small) {
			lu.Getf2(m, ld, n, 0, n, 0, n, piv, small)
		} else {
			for c := 0; c < n; c++ {
				col := m[c*ld : c*ld+n]
				for r := range col {
					col[r] = t[r*n+c]
				}
			}
			for j, v := range p {
				piv[j] = int32(v)
			}
		}
		info[i] = lu.DiagInfo(m, ld, n)
	}
}

// smallPivot reports whether a factored row-major n x n matrix has a pivot
// that took gonum's small-pivot branch: NaN, or nonzero and below small.
func smallPivot(t []float64, n int, small float64) bool {
	for j := 0; j < n; j++ {
		if d := lu.Abs(t[j*n+j]); d != 0 && !(d >= small) {
			return true
		}
	}
	return false
}
