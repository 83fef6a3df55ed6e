//go:build !novendor

package syrk

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates appends the gonum kernel to the candidate list.
var vendorCandidates = []sel.Choice{vendor.With()}

// vendor computes C_i with gonum's BLAS. gonum is row-major: our
// column-major C (n x n) read row-major is C^T, whose stored triangle is
// the other one (our Lower is gonum's Upper), and our column-major A is
// gonum's A^T, so op(A)*op(A)^T is gonum's with the transpose flipped.
func (j *job[T]) vendor(i int) {
	p := &j.p
	ul := blas.Upper
	if !p.lower {
		ul = blas.Lower
	}
	tA := blas.Trans
	if p.trans {
		tA = blas.NoTrans
	}
	a, c := p.a, p.c
	if p.beta == 0 {
		// gonum multiplies C by beta in one of its four branches (its
		// Lower with A transposed: our Upper, NoTrans) even when beta is
		// 0, which turns a NaN in C into a NaN in the result, where BLAS
		// does not read C. Zeroing the triangle first makes that branch
		// agree.
		scaleTriangle(p.lower, p.n, 0, c.Data[i*c.Stride:], c.LD)
	}
	impl := gonum.Implementation{}
	// The slices' interfaces stay on the stack: the switch only reads them.
	switch ad := any(a.Data).(type) {
	case []float64:
		cd := any(c.Data).([]float64)
		impl.Dsyrk(ul, tA, p.n, p.k, float64(p.alpha), ad[i*a.Stride:], a.LD, float64(p.beta), cd[i*c.Stride:], c.LD)
	case []float32:
		cd := any(c.Data).([]float32)
		impl.Ssyrk(ul, tA, p.n, p.k, float32(p.alpha), ad[i*a.Stride:], a.LD, float32(p.beta), cd[i*c.Stride:], c.LD)
	}
}
