package getrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// launchPerMatrix solves every system on one worker from start to end
// (lusolve.Solve: interchanges and both triangular solves per panel of
// four columns of B), the batch spread over the workers. A broadcast
// factor is read by every worker; it stays in each core's cache.
func launchPerMatrix[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) error {
	trans := p.trans == batchlas.Trans
	return parallel.For(ctx, b.Count, flopsPerMatrix(p), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			lusolve.Solve(trans, a.Data[i*a.Stride:], a.LD, p.n, pivots(ipiv, i, p.n), b.Data[i*b.Stride:], b.LD, p.nrhs)
		}
	})
}

// pivots is the first n entries of pivot vector i (vector 0 of a
// broadcast, whose Stride is 0).
func pivots(ipiv batchlas.Vectors[int32], i, n int) []int32 {
	o := i * ipiv.Stride
	return ipiv.Data[o : o+n : o+n]
}
