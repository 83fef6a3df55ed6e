package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: right-looking Cholesky across matrices. The batch is
// cut into groups of lanes.Lanes[T]() matrices (8 float64, 16 float32);
// each group is interleaved one matrix per vector lane (lanes.Gather),
// factored there by one instruction stream (lanes.Chol) and written back
// (lanes.Scatter). Only the uplo triangle is computed on; the other one
// travels through the group and is written back with the bits it had. A
// matrix that is not positive definite is frozen at its failing column as
// right-looking Cholesky leaves it there. The last group is padded with
// identity matrices.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix (n*n 64-byte vectors, 64 KiB at 32) stays in L2; beyond it the
// blocked per-matrix kernels win.
const lanesMax = 32

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices and infos.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((lanes.GroupLD(n)*n + 1) * lanes.Lanes[T]())
}

// lanesPotrf factors every matrix, a group at a time.
func lanesPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32) error {
	n := a.Rows
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.info, j.gld = runLanes, uplo, a, info, lanes.GroupLD(n)
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(n), ws, lanesSlot[T](n), j)
}
