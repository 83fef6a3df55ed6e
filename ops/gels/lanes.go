package gels

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesqr"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family solves across matrices, factor and solve fused: groups
// of lanes.Lanes[T]() systems (8 float64, 16 float32) are interleaved one
// per vector lane as [A_i | B_i] (lanes.Gather), so that the QR's column
// steps apply each reflector to B as to the rest of A
// (lanesqr.LeastSquares), then R X = (Q^T B)(0:n) is solved across the
// lanes. A is written back for every system, B only for those solved: a
// zero or NaN on R's diagonal leaves B_i as it was, as fused does.

// lanesMax bounds m and nrhs for the lanes kernel: a group ([A | B], at
// most 65 x 128 64-byte vectors, 520 KiB) stays within a core's L2 on the
// CPUs met; the tables decide where it wins.
const lanesMax = 64

// lanesSlot is one worker's scratch: the group, tau, info (as T) and
// lanesqr's scratch.
func lanesSlot[T batchlas.Float](p *problem) int {
	L := lanes.Lanes[T]()
	return parallel.Pad((lanes.GroupLD(p.m)*(p.n+p.nrhs)+p.n)*L + lanesqr.Slot[T](p.m))
}

// lanesGels solves every system, a group at a time.
func lanesGels[T batchlas.Float](ctx context.Context, p *problem, a, b batchlas.Batch[T], info []int32, ws []T) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.family, j.p, j.a, j.b, j.info = lanesFamily, *p, a, b, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(p), ws, lanesSlot[T](p), j)
}

// Group solves the group of systems from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	p, a, b := &j.p, j.a, j.b
	L, gld := lanes.Lanes[T](), lanes.GroupLD(p.m)
	cols := p.n + p.nrhs
	ga := buf[:cols*gld*L]
	gt := buf[cols*gld*L : (cols*gld+p.n)*L]
	work := buf[(cols*gld+p.n)*L:]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, p.m, p.n, count, gld)
	lanes.Gather(ga[p.n*gld*L:], b.Data[first*b.Stride:], b.Stride, b.LD, p.m, p.nrhs, count, gld)
	var info [16]int32
	lanesqr.LeastSquares(ga, p.m, p.n, p.nrhs, gld, count, gt, work, info[:L])
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, p.m, p.n, uint64(1)<<count-1, gld)
	var solved uint64
	for l := range count {
		j.info[first+l] = info[l]
		if info[l] == 0 {
			solved |= 1 << l
		}
	}
	lanes.Scatter(b.Data[first*b.Stride:], ga[p.n*gld*L:], b.Stride, b.LD, p.m, p.nrhs, solved, gld)
}
