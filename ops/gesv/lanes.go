package gesv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The lanes family: getf2 and the solve across matrices. The batch is cut
// into groups of lanes.Lanes[T]() systems (8 float64, 16 float32); each
// group is interleaved, one system per vector lane, into the layout of
// package lanes, factored and solved there by one vector instruction
// stream (lanes.LU: a pivot that differs between systems becomes a masked
// row swap), and written back system by system. lanes.LU does getrf's
// unblocked arithmetic, so the pivots, factors and info are getrf's
// unblocked kernel's, and for orders below the blocked solve's threshold
// the solutions are fused's bit for bit. The last group is padded with
// identity systems.

// lanesMax is the largest order the lanes kernel accepts: the group's
// matrix (n*n 64-byte vectors, 64 KiB at 32) stays in L2 with room for
// the right-hand sides, and beyond it the per-matrix kernels' blocked
// updates win.
const lanesMax = 32

// lanesSlot is the lanes kernel's per-worker scratch: the group's
// matrices, right-hand sides and pivots.
func lanesSlot[T batchlas.Float](p *problem) int {
	return parallel.Pad((lanes.GroupLD(p.n)*(p.n+p.nrhs) + p.n) * lanes.Lanes[T]())
}

// launchLanes factors and solves every system, a group at a time; a
// singular system (info > 0) is factored to the end and its B left as it
// was.
func launchLanes[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.a, j.ipiv, j.b, j.info = runLanes, *p, a, ipiv, b, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(p), ws, lanesSlot[T](p), j)
}

// lanesGroup solves the systems first .. first+L-1 (those that exist) as
// one interleaved group in buf (lanesSlot elements).
func lanesGroup[T batchlas.Float](p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], info []int32, first int, buf []T) {
	n, nrhs, L := p.n, p.nrhs, lanes.Lanes[T]()
	gld := lanes.GroupLD(n)
	ga, buf := buf[:n*gld*L], buf[n*gld*L:]
	gb, buf := buf[:nrhs*gld*L], buf[nrhs*gld*L:]
	piv := buf[:n*L]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	if nrhs > 0 {
		// B with no column may hold no storage at all, whatever its
		// stride: only a B with columns is indexed.
		lanes.Gather(gb, b.Data[first*b.Stride:], b.Stride, b.LD, n, nrhs, count, gld)
	}
	lanes.PadIdentity(ga, n, gld, count)
	lanes.LU(ga, gb, piv, n, nrhs, gld, lu.SafeMin[T]())
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, n, n, uint64(1)<<count-1, gld)
	var solved uint64 // the lanes whose X is written: the non-singular ones
	for l := range count {
		i := first + l
		pv := ipiv.Data[i*ipiv.Stride : i*ipiv.Stride+n]
		for j := range pv {
			pv[j] = int32(piv[j*L+l])
		}
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		if info[i] = lu.DiagInfo(m, a.LD, n); info[i] == 0 {
			solved |= 1 << l
		}
	}
	if nrhs > 0 {
		lanes.Scatter(b.Data[first*b.Stride:], gb, b.Stride, b.LD, n, nrhs, solved, gld)
	}
}
