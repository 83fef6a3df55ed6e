//go:build !novendor

package potri

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	sel "github.com/batchlas-go/batchlas/select"
)

// vendorFloat64 is the vendor candidate: gonum's LAPACK has no float32
// inverse, so float32 calls run natively.
var vendorFloat64 = []sel.Choice{vendor.With()}

// vendor inverts one factor (float64) with gonum's Dpotri. gonum is
// row-major: our column-major lower triangle read row-major is the upper
// triangle of the transpose, and the factorisation A = L*L^T is, for
// gonum, A = U^T*U with U = L^T: the same numbers, the triangle's name
// swapped, and the inverse (symmetric) lands where ours goes.
func (j *job[T]) vendor(ai []T) {
	a, _ := any(ai).([]float64)
	n, lda := j.a.Rows, j.a.LD
	ul := blas.Upper
	if !j.lower {
		ul = blas.Lower
	}
	gonum.Implementation{}.Dpotri(ul, n, a, lda)
}
