//go:build !novendor

package potri

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas/internal/tri"
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
//
// A factor with an Inf or NaN in its triangle goes to the per-matrix
// kernel instead: gonum's BLAS skips products with a zero that IEEE
// arithmetic makes NaN with an Inf (an inverse came out finite from a
// factor holding Inf).
func (j *job[T]) vendor(ai []T) {
	a, _ := any(ai).([]float64)
	n, lda := j.a.Rows, j.a.LD
	var nonFinite float64 // NaN once an entry is Inf or NaN
	for c := range n {
		lo, hi := c, n // the lower triangle's column c
		if !j.lower {
			lo, hi = 0, c+1
		}
		for _, v := range a[c*lda+lo : c*lda+hi] {
			nonFinite += v - v
		}
	}
	if nonFinite != nonFinite {
		tri.Inverse(j.lower, n, ai, lda)
		tri.TimesTranspose(j.lower, n, ai, lda)
		return
	}
	ul := blas.Upper
	if !j.lower {
		ul = blas.Lower
	}
	gonum.Implementation{}.Dpotri(ul, n, a, lda)
}
