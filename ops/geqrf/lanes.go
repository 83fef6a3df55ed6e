package geqrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesqr"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: Householder QR across matrices. The batch is cut into
// groups of lanes.Lanes[T]() matrices (8 float64, 16 float32); each group
// is interleaved one matrix per vector lane (lanes.Gather), factored there
// by one instruction stream (lanesqr.QR: geqr2's column loop on whole
// rows of lanes) and written back (lanes.Scatter) with its factors. A
// lane whose column leaves the fast path's safe range (near overflow or
// underflow, NaN, Inf) gets that column's reflector from the same scalar
// routine as unblocked, so every candidate follows one rule for extreme
// and non-finite input.

// lanesMax is the largest m and n the lanes kernel accepts: a group's
// matrices (m*n 64-byte vectors, 256 KiB at 64) stay in a core's L2 (1-2
// MiB on the CPUs met); the tables decide where it wins.
const lanesMax = 64

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices, their factors and lanesqr's scratch.
func lanesSlot[T batchlas.Float](m, n int) int {
	L := lanes.Lanes[T]()
	return parallel.Pad((lanes.GroupLD(m)*n+min(m, n))*L + lanesqr.Slot[T](m))
}

// lanesGeqrf factors every matrix, a group at a time.
func lanesGeqrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.tau = runLanes, a, tau
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows, a.Cols), ws, lanesSlot[T](a.Rows, a.Cols), j)
}

// Group factors the group of matrices from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	a, m, n := j.a, j.a.Rows, j.a.Cols
	L, gld, k := lanes.Lanes[T](), lanes.GroupLD(m), min(m, n)
	ga := buf[:n*gld*L]
	gt := buf[n*gld*L : (n*gld+k)*L]
	work := buf[(n*gld+k)*L:]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, m, n, count, gld)
	lanesqr.QR(ga, m, n, gld, count, gt, work)
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, m, n, uint64(1)<<count-1, gld)
	for l := range count {
		f := factors(j.tau, first+l, k)
		for r := range k {
			f[r] = gt[r*L+l]
		}
	}
}
