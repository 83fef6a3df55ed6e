package matinv

import (
	"context"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesinv"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: factor and invert across matrices in one pass. The
// batch is cut into groups of lanes.Lanes[T]() matrices (8 float64, 16
// float32); each group is interleaved one matrix per vector lane
// (lanes.Gather) and lanes.Inverse factors it with getf2's arithmetic
// (so pivots and info are getrf's unblocked kernel's) and solves
// A_i X_i = I for all n columns (at orders up to 8 in registers, from the
// identity with its rows swapped, multiplying by the reciprocals of U's
// diagonal); only the inverses go back (lanes.Scatter). Against getrf
// then getri, each a pass of its own over the batch, a group is read once
// and written once, and no factor or pivot is stored: at n = 3 that is
// most of the time. The last group is padded with identity matrices.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix and its inverse (2n^2 64-byte vectors, 512 KiB at 64) stay in a
// core's L2 on the CPUs met. At 48 it was 1.16x faster than chain and at
// 64 even with it (float64, Intel Xeon guest); the tables decide.
const lanesMax = 64

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices, their inverses, pivots and info.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((2*lanes.GroupLD(n)*n + n + 1) * lanes.Lanes[T]())
}

// lanesJob is one lanes call's state, from parallel's free list (a
// closure over the operands would escape to the heap on every call).
type lanesJob[T batchlas.Float] struct {
	a, x   batchlas.Batch[T]
	info   []int32
	small  T           // lu.SafeMin
	failed atomic.Bool // some matrix had no inverse
}

// launchLanes inverts every matrix, a group at a time, and reports
// whether every matrix has its inverse (every info 0), which spares
// Matinv a pass over the infos.
func launchLanes[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T, info []int32) (clean bool, err error) {
	if a.Rows == 3 && a.LD == 3 && x.LD == 3 && lanesinv.Inverse3Runs[T]() {
		return launchTight3(ctx, a, x, ws, info)
	}
	j := parallel.Get[lanesJob[T]]()
	defer parallel.Put(j)
	j.a, j.x, j.info, j.small = a, x, info, lu.SafeMin[T]()
	j.failed.Store(false)
	err = lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, lanesSlot[T](a.Rows), j)
	return !j.failed.Load(), err
}

// Group inverts matrices first .. first+L-1 (those that exist) in buf
// (lanesSlot elements).
func (j *lanesJob[T]) Group(buf []T, first int) {
	j.group(buf, first, min(lanes.Lanes[T](), j.a.Count-first))
}

// group inverts matrices first .. first+count-1, count <= L, in buf.
func (j *lanesJob[T]) group(buf []T, first, count int) {
	a, x, n := j.a, j.x, j.a.Rows
	L, gld := lanes.Lanes[T](), lanes.GroupLD(n)
	ga, buf := buf[:n*gld*L], buf[n*gld*L:]
	gx, buf := buf[:n*gld*L], buf[n*gld*L:]
	piv, inf := buf[:n*L], buf[n*L:n*L+L]
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	lanes.PadIdentity(ga, n, gld, count)
	lanes.Inverse(ga, gx, piv, n, gld, j.small, inf)
	// mask: the lanes with an inverse; the others' X_i is NaN (the
	// scatter leaves them alone).
	var mask uint64
	for l := range count {
		j.info[first+l] = int32(inf[l])
		if inf[l] == 0 {
			mask |= 1 << l
		} else {
			invkit.SetNaN(x, first+l)
			j.failed.Store(true)
		}
	}
	lanes.Scatter(x.Data[first*x.Stride:], gx, x.Stride, x.LD, n, n, mask, gld)
}

// Tight 3 x 3 matrices (columns 3 apart in a and in x) skip the group
// buffer: lanesinv.Inverse3 loads each group, inverts it and
// stores the inverses in registers, a worker's whole chunk in one call,
// with the results of the group path bit for bit. A chunk's last
// matrices, fewer than a group, take the group path. At n = 3 the moves
// through the buffer and the per-group calls were most of the time.

// tight3Job is launchTight3's state, from parallel's free list.
type tight3Job[T batchlas.Float] struct {
	lanesJob[T]
	ws   []T
	slot int
}

// launchTight3 inverts every matrix of a tight n = 3 batch, a worker's
// chunk at a time, and reports whether every matrix has its inverse.
func launchTight3[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T, info []int32) (clean bool, err error) {
	slot := lanesSlot[T](3)
	if len(ws) < slot {
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	j := parallel.Get[tight3Job[T]]()
	defer parallel.Put(j)
	j.a, j.x, j.info, j.small = a, x, info, lu.SafeMin[T]()
	j.failed.Store(false)
	j.ws, j.slot = ws, slot
	err = parallel.RunScratch(ctx, a.Count, flopsPerMatrix(3), len(ws)/slot, j)
	return !j.failed.Load(), err
}

// Chunk inverts matrices [lo, hi) on worker wk.
func (j *tight3Job[T]) Chunk(wk, lo, hi int) {
	L := lanes.Lanes[T]()
	a, x := j.a, j.x
	groups := (hi - lo) / L
	end := lo + groups*L
	_, failed := lanesinv.Inverse3(x.Data[lo*x.Stride:], a.Data[lo*a.Stride:], x.Stride, a.Stride, groups, j.small, j.info[lo:end])
	if failed {
		j.failed.Store(true)
		for i := lo; i < end; i++ {
			if j.info[i] != 0 {
				invkit.SetNaN(x, i)
			}
		}
	}
	if end < hi {
		j.group(j.ws[wk*j.slot:(wk+1)*j.slot], end, hi-end)
	}
}
