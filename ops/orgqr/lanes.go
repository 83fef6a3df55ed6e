package orgqr

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesqr"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family forms Q across matrices: groups of lanes.Lanes[T]()
// matrices (8 float64, 16 float32) are interleaved one per vector lane
// (lanes.Gather) with their factors, formed there by dorg2r's loop on
// whole rows of lanes (lanesqr.Org2R, the reflectors applied by the same
// column step as geqrf's lanes kernel) and written back (lanes.Scatter).

// lanesMax is the largest m (and so n) the lanes kernel accepts: a
// group's matrices (m*n 64-byte vectors, 256 KiB at 64) stay in a core's
// L2; the tables decide where it wins.
const lanesMax = 64

// lanesSlot is one worker's scratch: the group, its factors, and
// lanesqr's scratch.
func lanesSlot[T batchlas.Float](p *problem) int {
	L := lanes.Lanes[T]()
	return parallel.Pad((lanes.GroupLD(p.m)*p.n+max(p.k, 1))*L + lanesqr.Slot[T](p.m))
}

// lanesOrgqr forms every Q, a group at a time.
func lanesOrgqr[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.a, j.tau = runLanes, *p, a, tau
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(p), ws, lanesSlot[T](p), j)
}

// Group forms the Q of the group of matrices from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	p, a := &j.p, j.a
	L, gld := lanes.Lanes[T](), lanes.GroupLD(p.m)
	ga := buf[:p.n*gld*L]
	gt := buf[p.n*gld*L : (p.n*gld+max(p.k, 1))*L]
	work := buf[(p.n*gld+max(p.k, 1))*L:]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, p.m, p.n, count, gld)
	clear(gt) // the lanes past count: H = I
	for l := range count {
		for r, t := range taus(j.tau, first+l, p.k) {
			gt[r*L+l] = t
		}
	}
	lanesqr.Org2R(ga, p.m, p.n, p.k, gld, count, gt, work)
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, p.m, p.n, uint64(1)<<count-1, gld)
}
