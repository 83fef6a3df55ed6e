package getrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// unblockedGetrf factors each matrix in place with getf2 over all its
// columns (LAPACK's unblocked getf2): one worker owns one matrix at a time.
func unblockedGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	return runJob(ctx, runUnblocked, a, ipiv, info)
}

// pivots is the first n entries of pivot vector i.
func pivots(ipiv batchlas.Vectors[int32], i, n int) []int32 {
	o := i * ipiv.Stride
	return ipiv.Data[o : o+n : o+n]
}
