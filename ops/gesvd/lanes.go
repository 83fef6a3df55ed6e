package gesvd

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/svd"
)

// The lanes family: jacobi's algorithm with the sweeps run across
// matrices. The batch is cut into groups of svd.GroupSize[T]() matrices
// (8 float64, 16 float32); each matrix is checked, scaled and reduced to
// its min(m, n) order on its own, the group's sweeps run with one matrix
// per vector lane (internal/lanessvd), and each is finished on its own
// (svd.JacobiGroup).

// lanesMax is the largest min(m, n) the lanes kernel takes: the group's
// interleaved matrices and rotations (2 n^2 vectors, 128 KiB at 32) stay
// in a core's L2; the tables decide where it wins.
const lanesMax = 32

// lanesSlot is the lanes kernel's per-worker scratch.
func lanesSlot[T batchlas.Float](p *problem[T]) int {
	return parallel.Pad(svd.GroupWorkSize[T](p.a.Rows, p.a.Cols, p.jobu.kernelJob(), p.jobvt.kernelJob()))
}

// lanesGesvd decomposes every matrix, a group at a time.
func lanesGesvd[T batchlas.Float](ctx context.Context, p *problem[T], ws []T, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.info = runLanes, *p, info
	work := flopsPerMatrix(p.a.Rows, p.a.Cols, p.jobu != NoVectors || p.jobvt != NoVectors)
	return lanes.RunGroups(ctx, p.a.Count, work, ws, lanesSlot(p), j)
}

// Group decomposes the group of matrices from first (lanes). A matrix
// holding a NaN or an infinity takes no lane (info k+1, its outputs
// untouched), as every kernel leaves it.
func (j *job[T]) Group(buf []T, first int) {
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
