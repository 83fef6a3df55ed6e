package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"

	"github.com/batchlas-go/batchlas"
)

// recursiveGetrf factors each matrix in place by recursive halving of its
// columns (the shape of LAPACK's getrf2), one worker per matrix: the
// product that updates the right half runs over whole column blocks that
// stay in cache, instead of one rank-1 update per column sweeping the
// whole trailing matrix.
func recursiveGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	return runJob(ctx, runRecursive, a, ipiv, info)
}

// recursiveLeaf is lu.RecursiveLeaf: up to that order the recursive
// kernel is getf2 whole, the unblocked kernel (twin).
const recursiveLeaf = lu.RecursiveLeaf
