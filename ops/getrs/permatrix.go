package getrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// launchPerMatrix solves every system on one worker from start to end
// (lusolve.Solve: interchanges and both triangular solves per panel of
// four columns of B), the batch spread over the workers. A broadcast
// factor is read by every worker; it stays in each core's cache.
func launchPerMatrix[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) error {
	return runJob(ctx, runPerMatrix, p, a, ipiv, b, flopsPerMatrix(p))
}

// runJob runs kernel over the batch of b on a recycled job.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], work float64) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.a, j.ipiv, j.b = kernel, *p, a, ipiv, b
	return parallel.Run(ctx, b.Count, work, j)
}

// pivots is the first n entries of pivot vector i (vector 0 of a
// broadcast, whose Stride is 0).
func pivots(ipiv batchlas.Vectors[int32], i, n int) []int32 {
	o := i * ipiv.Stride
	return ipiv.Data[o : o+n : o+n]
}
