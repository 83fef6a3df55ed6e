package posv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: Cholesky and the two triangular solves across
// matrices. The batch is cut into groups of lanes.Lanes[T]() systems (8
// float64, 16 float32); each group is interleaved, one system per vector
// lane (lanes.Gather), factored and solved there by one instruction
// stream (lanes.Chol), and written back (lanes.Scatter). Only the uplo
// triangle is computed on; the other triangle of A travels through the
// group and is written back with the bits it had. A matrix that is not
// positive definite is frozen at its failing column as right-looking
// Cholesky leaves it there, and its B is not written. The last group is
// padded with identity systems.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix (n*n 64-byte vectors, 64 KiB at 32) stays in L2 with room for
// the right-hand sides; beyond it the blocked per-matrix kernels win.
const lanesMax = 32

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices, right-hand sides and infos.
func lanesSlot[T batchlas.Float](n, nrhs int) int {
	L := lanes.Lanes[T]()
	return parallel.Pad((lanes.GroupLD(n)*(n+nrhs) + 1) * L)
}

// lanesPosv factors and solves every system, a group at a time.
func lanesPosv[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T, info []int32) error {
	n, nrhs := a.Rows, b.Cols
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.uplo, j.a, j.b, j.info = runLanes, uplo, a, b, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(n, nrhs), ws, lanesSlot[T](n, nrhs), j)
}

// lanesGroup solves the systems first .. first+L-1 (those that exist) as
// one interleaved group in buf (lanesSlot elements).
func lanesGroup[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T], info []int32, first int, buf []T) {
	n, nrhs, L := a.Rows, b.Cols, lanes.Lanes[T]()
	gld := lanes.GroupLD(n)
	ga, buf := buf[:n*gld*L], buf[n*gld*L:]
	gb, buf := buf[:nrhs*gld*L], buf[nrhs*gld*L:]
	ginfo := buf[:L]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	if nrhs > 0 {
		// B with no column may hold no storage at all, whatever its
		// stride: only a B with columns is indexed.
		lanes.Gather(gb, b.Data[first*b.Stride:], b.Stride, b.LD, n, nrhs, count, gld)
	}
	lanes.PadIdentity(ga, n, gld, count)
	lanes.Chol(uplo == batchlas.Lower, ga, gb, n, nrhs, gld, ginfo)
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, n, n, uint64(1)<<count-1, gld)
	var solved uint64 // the lanes whose X is written: the factored ones
	for l := range count {
		if info[first+l] = int32(ginfo[l]); info[first+l] == 0 {
			solved |= 1 << l
		}
	}
	if nrhs > 0 {
		lanes.Scatter(b.Data[first*b.Stride:], gb, b.Stride, b.LD, n, nrhs, solved, gld)
	}
}
