package getrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: getf2 across matrices. The batch is cut into groups of
// lanes.Lanes[T]() matrices (8 float64, 16 float32); each group is
// interleaved one matrix per vector lane (lanes.Gather), factored there by
// one instruction stream (lanes.LU: a pivot that differs between matrices
// is a masked row swap) and written back (lanes.Scatter). lanes.LU repeats
// getf2's arithmetic, so the factors, pivots and info are the unblocked
// kernel's bit for bit. The last group is padded with identity matrices.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix (n*n 64-byte vectors, 64 KiB at 32) stays in L2; beyond it the
// blocked kernels win.
const lanesMax = 32

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices and pivots.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((lanes.GroupLD(n) + 1) * n * lanes.Lanes[T]())
}

// lanesGetrf factors every matrix, a group at a time.
func lanesGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.info, j.small, j.gld = runLanes, a, ipiv, info, lu.SafeMin[T](), lanes.GroupLD(a.Rows)
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, lanesSlot[T](a.Rows), j)
}
