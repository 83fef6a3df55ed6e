package potri

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanerows"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanesinv"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The lanes family: xPOTRI across matrices. The batch is cut into groups
// of lanes.Lanes[T]() factors (8 float64, 16 float32), interleaved one per
// lane (lanes.Gather); permatrix's two steps, the triangle's inverse
// (xTRTI2) and its product with its transpose (xLAUU2), run on the whole
// group in permatrix's order, each scalar operation an operation on a row
// of lanes (the column updates and dot products over rows on
// internal/lanerows, AVX-512 on x86-64-v4), and the triangles go back
// (lanes.Scatter, the uplo triangle only). permatrix fuses its
// multiply-adds and sums its dot products by vector lanes; this kernel
// rounds each product and sums in row order, so the two agree within
// rounding. A factor with a zero or NaN on its diagonal is found in the
// gathered group (tri.Singular's rule) and left out of the scatter.
// potri takes no workspace: a call takes its groups' scratch from
// simd's free list and puts it back, so it allocates nothing once the
// list holds a buffer.

// lanesMax is the largest order the lanes kernel accepts: a group (n*n
// 64-byte vectors, 1 MiB at 128) stays in a core's L2 on the Intel Xeon
// met (2 MiB); on a CPU with 1 MiB of L2 (Zen 5) it overflows it at 128,
// and that CPU's table decides.
const lanesMax = 128

// lanesSlot is the lanes kernel's per-worker scratch: the group and
// lanesinv's two rows of lanes.
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((lanes.GroupLD(n)*n + 2) * lanes.Lanes[T]())
}

// lanesPotri inverts every factor, a group at a time.
func lanesPotri[T batchlas.Float](ctx context.Context, lower bool, a batchlas.Batch[T], info []int32) error {
	slot := lanesSlot[T](a.Rows)
	s, ws := simd.GetScratch[T](parallel.Workers(ctx) * slot)
	defer simd.PutScratch(s)
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.lower, j.a, j.info = runLanes, lower, a, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, slot, j)
}

// Group inverts the group of factors from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	a, n := j.a, j.a.Rows
	L, gld := lanes.Lanes[T](), lanes.GroupLD(n)
	count := min(L, a.Count-first)
	g := buf[:n*gld*L]
	t := buf[n*gld*L : (n*gld+2)*L]
	lanes.Gather(g, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	// tri.Singular's code per lane, read from the group; mask: the lanes
	// with an inverse.
	mask := lanerows.Singular(g, n, gld, count, j.info[first:first+count])
	if mask == 0 {
		return
	}
	lanes.PadIdentity(g, n, gld, count)
	if j.lower {
		lanesinv.Lower(g, n, gld, L, t)
	} else {
		lanesinv.Upper(g, n, gld, L, t)
	}
	// Column by column, the uplo triangle only: the other is never
	// written.
	for c := range n {
		r0, rows := c, n-c
		if !j.lower {
			r0, rows = 0, c+1
		}
		lanes.Scatter(a.Data[first*a.Stride+c*a.LD+r0:], g[(c*gld+r0)*L:], a.Stride, a.LD, rows, 1, mask, gld)
	}
}
