package poinv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesinv"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: factor, invert and mirror across matrices in one
// pass. The batch is cut into groups of lanes.Lanes[T]() matrices (8
// float64, 16 float32); each group is interleaved one matrix per vector
// lane (lanes.Gather), factored there (lanes.Chol: potrf's lanes
// arithmetic, so info is potrf's), inverted from the factor (lanesinv:
// xPOTRI on rows of lanes), the triangle copied onto the other one a row
// of lanes at a time, and only the whole inverses of the positive
// definite lanes go back (lanes.Scatter). Against potrf then potri then a
// mirror, each a pass over the batch, a group is read once and written
// once. The last group is padded with identity matrices.

// lanesMax is the largest order the lanes kernel accepts: a group (n*n
// 64-byte vectors, 1 MiB at 128) stays in a core's L2 on the Intel Xeon
// met (2 MiB), where at n = 128 it runs even with chain (whose potri runs
// the same arithmetic across lanes, after potrf per matrix); on a CPU
// with 1 MiB of L2 (Zen 5) the group overflows it at 128, and its own
// table decides there.
const lanesMax = 128

// lanesSlot is the lanes kernel's per-worker scratch: the group, its
// lanes' info and lanesinv's two rows of lanes.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((lanes.GroupLD(n)*n + 3) * lanes.Lanes[T]())
}

// lanesJob is one lanes call's state, from parallel's free list (a
// closure over the operands would escape to the heap on every call).
type lanesJob[T batchlas.Float] struct {
	lower bool
	a, x  batchlas.Batch[T]
	info  []int32
}

// launchLanes inverts every matrix, a group at a time.
func launchLanes[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, x batchlas.Batch[T], ws []T, info []int32) error {
	j := parallel.Get[lanesJob[T]]()
	defer parallel.Put(j)
	j.lower, j.a, j.x, j.info = uplo == batchlas.Lower, a, x, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, lanesSlot[T](a.Rows), j)
}

// Group inverts matrices first .. first+L-1 (those that exist) in buf
// (lanesSlot elements).
func (j *lanesJob[T]) Group(buf []T, first int) {
	a, x, n := j.a, j.x, j.a.Rows
	L, gld := lanes.Lanes[T](), lanes.GroupLD(n)
	g, buf := buf[:n*gld*L], buf[n*gld*L:]
	ginfo, t := buf[:L], buf[L:3*L]
	count := min(L, a.Count-first)
	lanes.Gather(g, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	lanes.PadIdentity(g, n, gld, count)
	lanes.Chol(j.lower, g, nil, n, 0, gld, ginfo)
	var mask uint64 // the positive definite lanes
	for l := range count {
		j.info[first+l] = int32(ginfo[l])
		if ginfo[l] == 0 {
			mask |= 1 << l
		}
	}
	if mask != 0 {
		if j.lower {
			lanesinv.Lower(g, n, gld, L, t)
		} else {
			lanesinv.Upper(g, n, gld, L, t)
		}
		mirror(g, n, gld, L, j.lower)
		lanes.Scatter(x.Data[first*x.Stride:], g, x.Stride, x.LD, n, n, mask, gld)
	}
	for l := range count {
		if mask>>l&1 == 0 {
			invkit.SetNaN(x, first+l)
		}
	}
}

// mirror copies the lower (or upper) triangle of every lane's matrix in
// the group g onto the other triangle, a row of lanes per element.
func mirror[T batchlas.Float](g []T, n, gld, L int, lower bool) {
	for c := range n {
		for r := c + 1; r < n; r++ {
			lo, up := (c*gld+r)*L, (r*gld+c)*L // (r, c) and (c, r)
			if lower {
				copy(g[up:up+L], g[lo:lo+L])
			} else {
				copy(g[lo:lo+L], g[up:up+L])
			}
		}
	}
}
