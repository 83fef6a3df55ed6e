package matinv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/internal/lanerows"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: factor and invert across matrices in one pass. The
// batch is cut into groups of lanes.Lanes[T]() matrices (8 float64, 16
// float32); each group is interleaved one matrix per vector lane
// (lanes.Gather), the identity is laid beside it, and lanes.LU factors
// the group with getf2's arithmetic (so pivots and info are getrf's
// unblocked kernel's) while solving A_i X_i = I for all n columns; only
// the inverses go back (lanes.Scatter). Against getrf then getri, each a
// pass of its own over the batch, a group is read once and written once,
// and no factor or pivot is stored: at n = 3 that is most of the time.
// The last group is padded with identity matrices.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix and its inverse (2n^2 64-byte vectors, 512 KiB at 64) stay in a
// core's L2 on the CPUs met. At 48 it was 1.16x faster than chain and at
// 64 even with it (float64, Intel Xeon guest); the tables decide.
const lanesMax = 64

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices, their inverses and pivots.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((2*lanes.GroupLD(n)*n + n) * lanes.Lanes[T]())
}

// lanesJob is one lanes call's state, from parallel's free list (a
// closure over the operands would escape to the heap on every call).
type lanesJob[T batchlas.Float] struct {
	a, x  batchlas.Batch[T]
	info  []int32
	small T // lu.SafeMin
}

// launchLanes inverts every matrix, a group at a time.
func launchLanes[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T, info []int32) error {
	j := parallel.Get[lanesJob[T]]()
	defer parallel.Put(j)
	j.a, j.x, j.info, j.small = a, x, info, lu.SafeMin[T]()
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, lanesSlot[T](a.Rows), j)
}

// Group inverts matrices first .. first+L-1 (those that exist) in buf
// (lanesSlot elements).
func (j *lanesJob[T]) Group(buf []T, first int) {
	a, x, n := j.a, j.x, j.a.Rows
	L, gld := lanes.Lanes[T](), lanes.GroupLD(n)
	ga, buf := buf[:n*gld*L], buf[n*gld*L:]
	gx, buf := buf[:n*gld*L], buf[n*gld*L:]
	piv := buf[:n*L]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	lanes.PadIdentity(ga, n, gld, count)
	clear(gx)
	for c := range n {
		d := gx[(c*gld+c)*L : (c*gld+c+1)*L]
		for l := range d {
			d[l] = 1
		}
	}
	lanes.LU(ga, gx, piv, n, n, gld, j.small)
	// getrf's info per lane, read from the factor's diagonal in the
	// group; mask: the lanes with an inverse.
	mask := lanerows.Singular(ga, n, gld, count, j.info[first:first+count])
	lanes.Scatter(x.Data[first*x.Stride:], gx, x.Stride, x.LD, n, n, mask, gld)
	for l := range count {
		if mask>>l&1 == 0 {
			invkit.SetNaN(x, first+l)
		}
	}
}
