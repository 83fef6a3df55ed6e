package potrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// fusedPotrs solves each system on one worker, both substitutions in one
// go (chol.Solve): the factor is read from cache by the backward sweep
// right after the forward sweep brought it in, and B_i's four-column
// groups stay in L1 between the two, where nested streams the whole batch
// through memory once per trsm call. It needs no workspace. A broadcast
// factor is one matrix every worker reads.
func fusedPotrs[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) error {
	n, nrhs := b.Rows, b.Cols
	return parallel.For(ctx, b.Count, flopsPerMatrix(n, nrhs), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			chol.Solve(uplo, a.Data[i*a.Stride:], a.LD, n, b.Data[i*b.Stride:], b.LD, nrhs)
		}
	})
}
