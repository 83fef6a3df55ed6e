package posv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// fusedPosv factors and solves each system on one worker: A_i is factored
// in place (chol.Factor, unblocked: meant for orders whose matrix stays in
// cache), and B_i is solved right after from the factor it just wrote,
// while that is still in cache; nested instead streams the whole batch
// through potrf, then again through potrs. A matrix that is not positive
// definite gets its info and its B_i is not touched. No workspace.
func fusedPosv[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], info []int32) error {
	n, nrhs := a.Rows, b.Cols
	return parallel.For(ctx, a.Count, flopsPerMatrix(n, nrhs), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
			if f := chol.Factor(uplo, m, a.LD, n); f != 0 {
				info[i] = int32(f)
				continue
			}
			if nrhs > 0 { // an empty B need not hold storage to index
				chol.Solve(uplo, m, a.LD, n, b.Data[i*b.Stride:], b.LD, nrhs)
			}
		}
	})
}
