package gesv

import (
	"context"

	"github.com/batchlas-go/batchlas"
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
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.a, j.ipiv, j.b, j.info = runFused, *p, a, ipiv, b, info
	return parallel.Run(ctx, a.Count, flopsPerMatrix(p), j)
}
