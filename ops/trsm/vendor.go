//go:build !novendor

package trsm

import (
	"context"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates appends the gonum kernel to the candidate list.
var vendorCandidates = []sel.Choice{vendor.With()}

// launchVendor calls gonum's Dtrsm or Strsm once per matrix, the batch
// spread over the workers.
//
// gonum is row-major. A column-major m x n matrix with leading dimension ld
// is the row-major n x m matrix of its transpose with the same stride, so
// op(A)*X = B becomes X^T*op(A)^T = B^T: the side and the triangle swap,
// the transpose flag and the data stay, nothing is copied.
func launchVendor[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T]) error {
	work := float64(p.t) * float64(p.t) * float64(p.r)
	return runJob(ctx, runVendor, p, alpha, a, b, nil, work, 0, nil)
}

// vendor solves matrices [lo, hi) with gonum.
func (j *job[T]) vendor(lo, hi int) {
	p, a, b, alpha := &j.p, j.a, j.b, j.alpha
	side, uplo := blas.Right, blas.Lower
	if p.side == batchlas.Right {
		side = blas.Left
	}
	if p.uplo == batchlas.Lower {
		uplo = blas.Upper
	}
	ta := blas.NoTrans
	if p.ta == batchlas.Trans {
		ta = blas.Trans
	}
	diag := blas.NonUnit
	if p.diag == batchlas.Unit {
		diag = blas.Unit
	}
	impl := gonum.Implementation{}
	// The slices' interfaces stay on the stack: the switch only reads them.
	switch ad := any(a.Data).(type) {
	case []float64:
		bd := any(b.Data).([]float64)
		for i := lo; i < hi; i++ {
			impl.Dtrsm(side, uplo, ta, diag, p.n, p.m, float64(alpha), ad[i*a.Stride:], a.LD, bd[i*b.Stride:], b.LD)
		}
	case []float32:
		bd := any(b.Data).([]float32)
		for i := lo; i < hi; i++ {
			impl.Strsm(side, uplo, ta, diag, p.n, p.m, float32(alpha), ad[i*a.Stride:], a.LD, bd[i*b.Stride:], b.LD)
		}
	}
}
