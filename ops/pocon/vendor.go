//go:build !novendor

package pocon

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 Dpocon.
var vendorFloat64 = []sel.Choice{vendor.With()}

// launchVendor estimates each matrix with gonum's Dpocon, the batch spread
// over the workers.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, f batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	if _, ok := any(f.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "chol", "the vendor kernel is float64 only; pin permatrix for float32")
	}
	var est condest.Estimator[T] = vendorLower[T]{}
	if p.uplo == batchlas.Upper {
		est = vendorUpper[T]{}
	}
	return condest.Run(ctx, f, byte(p.uplo), anorm, rcond, ws, need, flopsPerMatrix(p.n), est)
}

// vendorLower and vendorUpper are the vendor kernel per uplo, zero-size
// values (condest.Estimator).
type (
	vendorLower[T batchlas.Float] struct{}
	vendorUpper[T batchlas.Float] struct{}
)

func (vendorLower[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return vendorRcond(batchlas.Lower, m, ld, n, an, scratch)
}

func (vendorUpper[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return vendorRcond(batchlas.Upper, m, ld, n, an, scratch)
}

// vendorSlot is one worker's scratch: Dpocon's work of 3n. The factor
// needs no copy: a column-major matrix read row-major is its transpose,
// so the lower factor L (A = L*L^T) is gonum's upper factor of the same A.
func vendorSlot(n int) int { return parallel.Pad(3 * n) }

// vendorRcond is Dpocon on matrix m; the integer work is allocated per
// matrix (gonum wants int).
func vendorRcond[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int, an T, scratch []T) T {
	md, _ := any(m).([]float64)
	sd, _ := any(scratch).([]float64)
	ul := blas.Upper
	if uplo == batchlas.Upper {
		ul = blas.Lower
	}
	r := gonum.Implementation{}.Dpocon(ul, n, md[:(n-1)*ld+n], ld, float64(an), sd[:3*n], make([]int, n))
	return T(r)
}
