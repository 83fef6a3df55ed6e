package posv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// fusedPosv factors and solves each system on one worker: A_i is factored
// in place (chol.Factor, unblocked: meant for orders whose matrix stays in
// cache), and B_i is solved right after from the factor it just wrote,
// while that is still in cache; nested instead streams the whole batch
// through potrf, then again through potrs. A matrix that is not positive
// definite gets its info and its B_i is not touched. No workspace.
func fusedPosv[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.b, j.info = runFused, uplo, a, b, info
	return parallel.Run(ctx, a.Count, flopsPerMatrix(a.Rows, b.Cols), j)
}
