//go:build !novendor

package trmm

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates appends the gonum kernel to the candidate list.
var vendorCandidates = []sel.Choice{vendor.With()}

// vendor computes B_i with gonum's BLAS. gonum is row-major: our
// column-major m x n B read row-major is B^T (n x m), and our A is gonum's
// A^T, so op(A)*B (Left) is, transposed, B^T*op(A)^T: gonum's side Right
// with the triangle swapped (our Lower is its Upper), the transpose flag
// as it is, and the shape (n, m).
func (j *job[T]) vendor(i int) {
	p := &j.p
	side := blas.Right
	if p.side == batchlas.Right {
		side = blas.Left
	}
	ul := blas.Upper
	if p.uplo == batchlas.Upper {
		ul = blas.Lower
	}
	tA := blas.NoTrans
	if p.ta == batchlas.Trans {
		tA = blas.Trans
	}
	dg := blas.NonUnit
	if p.diag == batchlas.Unit {
		dg = blas.Unit
	}
	a, b := p.a, p.b
	impl := gonum.Implementation{}
	// The slices' interfaces stay on the stack: the switch only reads them.
	switch ad := any(a.Data).(type) {
	case []float64:
		bd := any(b.Data).([]float64)
		impl.Dtrmm(side, ul, tA, dg, p.n, p.m, float64(p.alpha), ad[i*a.Stride:], a.LD, bd[i*b.Stride:], b.LD)
	case []float32:
		bd := any(b.Data).([]float32)
		impl.Strmm(side, ul, tA, dg, p.n, p.m, float32(p.alpha), ad[i*a.Stride:], a.LD, bd[i*b.Stride:], b.LD)
	}
}
