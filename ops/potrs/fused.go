package potrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// fusedPotrs solves each system on one worker, both substitutions in one
// go (chol.Solve): the factor is read from cache by the backward sweep
// right after the forward sweep brought it in, and B_i's four-column
// groups stay in L1 between the two, where nested streams the whole batch
// through memory once per trsm call. It needs no workspace. A broadcast
// factor is one matrix every worker reads.
func fusedPotrs[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.b = runFused, uplo, a, b
	return parallel.Run(ctx, b.Count, flopsPerMatrix(b.Rows, b.Cols), j)
}
