//go:build !novendor

package potrf

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 Cholesky, and converting through float64 would make "vendor" a
// different algorithm at a different precision. float32 calls run natively.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 = []sel.Choice{vendorFamily.With()}
)

// vendorPotrf calls gonum's Dpotrf on each matrix, parallel over the batch.
// gonum is row-major: a column-major matrix with leading dimension ld is the
// row-major transpose with stride ld, so the Lower factor of the column-major
// matrix is the Upper factor of the row-major one (and the reverse), with no
// copy.
func vendorPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	if _, ok := any(a.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf("potrf", "a", "the vendor kernel is float64 only; pin a native kernel for float32")
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.info = runVendor, uplo, a, info
	return parallel.Run(ctx, a.Count, flopsPerMatrix(a.Rows), j)
}

// vendorRange factors matrices [lo, hi) of a (float64) with gonum.
func vendorRange[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], info []int32, lo, hi int) {
	data, ok := any(a.Data).([]float64)
	if !ok {
		return
	}
	ul := blas.Upper
	if uplo == batchlas.Upper {
		ul = blas.Lower
	}
	n, ld, stride := a.Rows, a.LD, a.Stride
	impl := gonum.Implementation{}
	for i := lo; i < hi; i++ {
		m := data[i*stride : i*stride+(n-1)*ld+n]
		if !impl.Dpotrf(ul, n, m, ld) {
			info[i] = failedMinor(m, ld, n)
		}
	}
}

// failedMinor recovers LAPACK's info from a matrix gonum refused: gonum
// reports only success, but it stops at the first pivot that is not
// positive, leaving every earlier pivot a positive square root and the
// failing one as computed. So the first diagonal entry that is not positive
// (NaN included) is the failing leading minor.
func failedMinor[T batchlas.Float](m []T, ld, n int) int32 {
	for j := 0; j < n; j++ {
		if !(m[j*ld+j] > 0) {
			return int32(j + 1)
		}
	}
	return int32(n) // not reached for a matrix gonum refused
}
