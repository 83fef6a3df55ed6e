//go:build !novendor

package getrs

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates appends the gonum kernel to the candidate list.
var vendorCandidates = []sel.Choice{vendor.With()}

// launchVendor solves each system with gonum's BLAS, the batch spread over
// the workers: the row interchanges here, then Dtrsm (Strsm) with L and
// with U.
//
// Why not gonum's Dgetrs: gonum is row-major, and our column-major factor
// read row-major is A^T = U^T*L^T*P^T, which is not the P*L*U with a unit
// lower L that Dgetrs expects (the unit diagonal would be on the wrong
// factor). Calling it would mean a transposed copy of every factor and of
// B, and gonum's int pivots, per matrix. The two triangular solves need
// no copy: a column-major m x n matrix with leading dimension ld is the
// row-major n x m matrix of its transpose with the same stride, so
// op(T)*X = B (side Left) is X^T*op(T)^T = B^T: side Right with the
// triangle swapped (our Lower is gonum's Upper), the transpose flag and
// the data as they are. gonum's Dlaswp interchanges rows of a row-major
// matrix, which are columns of ours, so the interchanges are ours
// (lusolve.Forward/Backward, the same as every kernel's).
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) error {
	return runJob(ctx, runVendor, p, a, ipiv, b, flopsPerMatrix(p))
}

// vendor solves systems [lo, hi) with gonum.
func (j *job[T]) vendor(lo, hi int) {
	p, a, b, ipiv := &j.p, j.a, j.b, j.ipiv
	ta := blas.NoTrans
	first, second := blas.Upper, blas.Lower // L (gonum's Upper), then U
	firstDiag, secondDiag := blas.Unit, blas.NonUnit
	trans := p.trans == batchlas.Trans
	if trans {
		ta = blas.Trans
		first, second = blas.Lower, blas.Upper // U^T, then L^T
		firstDiag, secondDiag = blas.NonUnit, blas.Unit
	}
	n, nrhs := p.n, p.nrhs
	impl := gonum.Implementation{}
	// The slices' interfaces stay on the stack: the switch only reads them.
	switch ad := any(a.Data).(type) {
	case []float64:
		bd := any(b.Data).([]float64)
		for i := lo; i < hi; i++ {
			am, bm, piv := ad[i*a.Stride:], bd[i*b.Stride:], pivots(ipiv, i, n)
			if !trans {
				lusolve.Forward(bm, b.LD, n, nrhs, piv)
			}
			impl.Dtrsm(blas.Right, first, ta, firstDiag, nrhs, n, 1, am, a.LD, bm, b.LD)
			impl.Dtrsm(blas.Right, second, ta, secondDiag, nrhs, n, 1, am, a.LD, bm, b.LD)
			if trans {
				lusolve.Backward(bm, b.LD, n, nrhs, piv)
			}
		}
	case []float32:
		bd := any(b.Data).([]float32)
		for i := lo; i < hi; i++ {
			am, bm, piv := ad[i*a.Stride:], bd[i*b.Stride:], pivots(ipiv, i, n)
			if !trans {
				lusolve.Forward(bm, b.LD, n, nrhs, piv)
			}
			impl.Strsm(blas.Right, first, ta, firstDiag, nrhs, n, 1, am, a.LD, bm, b.LD)
			impl.Strsm(blas.Right, second, ta, secondDiag, nrhs, n, 1, am, a.LD, bm, b.LD)
			if trans {
				lusolve.Backward(bm, b.LD, n, nrhs, piv)
			}
		}
	}
}
