package gesvd

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/svd"
)

// The lanes family: jacobi's algorithm with the sweeps run across
// matrices. The batch is cut into groups of svd.GroupSize[T]() matrices
// (16 float64, 32 float32: two halves of one matrix per vector lane);
// each matrix is checked, scaled and reduced to its min(m, n) order on its
// own, each half's sweeps run with one matrix per vector lane, the two
// halves' interleaved (internal/lanessvd), and each matrix is finished on
// its own (svd.JacobiGroup).

// lanesMax is the largest min(m, n) the lanes kernel takes: the group's
// interleaved matrices and rotations (2 n^2 vectors a half, 256 KiB for
// both at 32) stay in a core's L2; the tables decide where it wins.
const lanesMax = 32

// svd.JacobiGroup takes orders up to svd.GroupMaxOrder: this fails to
// compile if lanesMax passes it.
const _ = uint(svd.GroupMaxOrder - lanesMax)

// lanesSlot is the lanes kernel's per-worker scratch.
func lanesSlot[T batchlas.Float](p *problem[T]) int {
	return parallel.Pad(svd.GroupWorkSize[T](p.a.Rows, p.a.Cols, p.jobu.kernelJob(), p.jobvt.kernelJob()))
}

// lanesGesvd decomposes every matrix, a group at a time. It is
// lanes.RunGroups' loop with groups of svd.GroupSize (two vectors' worth
// of lanes, not one): the workers' slots as there, an interruption
// reported in matrices (the groups done, times the group size, capped at
// the batch).
func lanesGesvd[T batchlas.Float](ctx context.Context, p *problem[T], ws []T, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	slot := lanesSlot(p)
	if len(ws) < slot {
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	G, count := svd.GroupSize[T](), p.a.Count
	j.kernel, j.p, j.info, j.ws, j.slot = runLanes, *p, info, ws, slot
	work := flopsPerMatrix(p.a.Rows, p.a.Cols, p.jobu != NoVectors || p.jobvt != NoVectors)
	// slot > 0: Gesvd answers zero-sized dimensions before any kernel.
	err := parallel.RunScratch(ctx, (count+G-1)/G, float64(G)*work, len(ws)/slot, j)
	if err == nil {
		return nil
	}
	var ie *batchlas.InterruptedError // here only: errors.As moves it to the heap
	if errors.As(err, &ie) {
		done := min(count, ie.Completed*G)
		return &batchlas.InterruptedError{Count: count, Completed: done, Touched: done, Err: ie.Err}
	}
	return err
}

// lanesGroups decomposes groups [lo, hi) on worker w.
func (j *job[T]) lanesGroups(w, lo, hi int) {
	buf := j.ws[w*j.slot : (w+1)*j.slot]
	for g := lo; g < hi; g++ {
		j.group(buf, g*svd.GroupSize[T]())
	}
}

// group decomposes the group of matrices from first (lanes). A matrix
// holding a NaN or an infinity takes no lane (info k+1, its outputs
// untouched), as every kernel leaves it.
func (j *job[T]) group(buf []T, first int) {
	p := &j.p
	count := min(svd.GroupSize[T](), p.a.Count-first)
	var u, vt []T
	ldu, su, ldvt, svt := 1, 0, 1, 0
	ju, jvt := p.jobu.kernelJob(), p.jobvt.kernelJob()
	if ju != svd.None {
		u, ldu, su = p.u.Data[first*p.u.Stride:], p.u.LD, p.u.Stride
	}
	if jvt != svd.None {
		vt, ldvt, svt = p.vt.Data[first*p.vt.Stride:], p.vt.LD, p.vt.Stride
	}
	svd.JacobiGroup(count, p.a.Rows, p.a.Cols, p.a.Data[first*p.a.Stride:], p.a.LD, p.a.Stride, p.s.Data[first*p.s.Stride:], p.s.Stride, ju, jvt, u, ldu, su, vt, ldvt, svt, buf, j.info[first:first+count])
}
