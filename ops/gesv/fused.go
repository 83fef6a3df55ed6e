package gesv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The fused family: each system on one worker from start to end, the
// factorisation (lu.Recursive, the code getrf's recursive kernel runs,
// which is Getf2 whole up to order lu.RecursiveLeaf) and then the solve
// (lusolve.Solve) back to back, so a matrix that fits in
// the core's cache is read from memory once for both; the batch spread
// over the workers. Sharing getrf's code makes its pivots, factors and
// info getrf's by construction.

// launchFused factors and solves every system; a singular one (info > 0)
// is factored to the end and its B left as it was.
func launchFused[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], info []int32) error {
	n, nrhs := p.n, p.nrhs
	small := lu.SafeMin[T]()
	return parallel.For(ctx, a.Count, flopsPerMatrix(p), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
			o := i * ipiv.Stride
			piv := ipiv.Data[o : o+n : o+n]
			lu.Recursive(m, a.LD, n, piv, small)
			info[i] = lu.DiagInfo(m, a.LD, n)
			// A B with no column may hold no storage: it is not indexed.
			if info[i] == 0 && nrhs > 0 {
				lusolve.Solve(false, m, a.LD, n, piv, b.Data[i*b.Stride:], b.LD, nrhs)
			}
		}
	})
}
