//go:build !novendor

package gecon

import (
	"context"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// The vendor candidate exists for float64 only: gonum's LAPACK has no
// float32 Dgecon.
var vendorFloat64 = []sel.Choice{vendor.With()}

// launchVendor estimates each matrix with gonum's Dgecon, the batch spread
// over the workers.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, lu batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	if _, ok := any(lu.Data).([]float64); !ok {
		// Unreachable: no float32 vendor candidate is listed.
		return opkit.Argf(opName, "lu", "the vendor kernel is float64 only; pin permatrix for float32")
	}
	var est condest.Estimator[T] = vendorOne[T]{}
	if p.norm == batchlas.InfNorm {
		est = vendorInf[T]{}
	}
	return condest.Run(ctx, lu, 0, anorm, rcond, ws, need, flopsPerMatrix(p.n), est)
}

// vendorOne and vendorInf are the vendor kernel per norm, zero-size
// values (condest.Estimator).
type (
	vendorOne[T batchlas.Float] struct{}
	vendorInf[T batchlas.Float] struct{}
)

func (vendorOne[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return vendorRcond(batchlas.OneNorm, m, ld, n, an, scratch)
}

func (vendorInf[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return vendorRcond(batchlas.InfNorm, m, ld, n, an, scratch)
}

// vendorSlot is one worker's scratch: the factor transposed (gonum is
// row-major, and a column-major LU factor read row-major has its unit
// diagonal on the wrong triangle) and Dgecon's work of 4n.
func vendorSlot(n int) int { return parallel.Pad(n*n + 4*n) }

// vendorRcond is Dgecon on matrix m. Its pivot-free contract is the same
// as gecon's; the integer work is allocated per matrix (gonum wants int).
func vendorRcond[T batchlas.Float](norm batchlas.Norm, m []T, ld, n int, an T, scratch []T) T {
	md, _ := any(m).([]float64)
	sd, _ := any(scratch).([]float64)
	t := sd[:n*n]
	for c := range n {
		for r, v := range md[c*ld : c*ld+n] {
			t[r*n+c] = v
		}
	}
	ln := lapack.MaxColumnSum
	if norm == batchlas.InfNorm {
		ln = lapack.MaxRowSum
	}
	r := gonum.Implementation{}.Dgecon(ln, n, t, n, float64(an), sd[n*n:n*n+4*n], make([]int, n))
	return T(r)
}
