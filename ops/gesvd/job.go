package gesvd

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/svd"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runJacobi jobKernel = iota
	runBidiag
	runVendor
	runLanes // groups of svd.GroupSize matrices, not matrices
)

// job is the state of one gesvd batch loop, the Body parallel.RunScratch
// hands to its workers. It comes from parallel's free list, so a call with
// its workspace supplied allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem[T]
	ws     []T // per-worker scratch, slot elements each
	slot   int
	info   []int32

	buf []float64 // vendor: per-worker copies and gonum's work
}

// runJob runs kernel over the batch of p with slot elements of ws per
// worker, writing each matrix's info.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem[T], ws []T, slot int, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.ws, j.slot, j.info = kernel, *p, ws, slot, info
	work := flopsPerMatrix(p.a.Rows, p.a.Cols, p.jobu != NoVectors || p.jobvt != NoVectors)
	return parallel.RunScratch(ctx, p.a.Count, work, len(ws)/slot, j)
}

// Chunk decomposes matrices [lo, hi) on worker w (groups [lo, hi) for
// runLanes).
func (j *job[T]) Chunk(w, lo, hi int) {
	switch j.kernel {
	case runJacobi, runBidiag:
		j.perMatrix(w, lo, hi)
	case runVendor:
		j.vendor(w, lo, hi)
	case runLanes:
		j.lanesGroups(w, lo, hi)
	}
}

// Group computes the singular values of the group of lanes.Lanes
// matrices from first (svd.ValuesGroup): the bidiag kernel's values-only
// path, run by lanes.RunGroups. A matrix holding a NaN or an infinity
// gets info k+1, its values untouched, as every kernel leaves it.
func (j *job[T]) Group(buf []T, first int) {
	p := &j.p
	count := min(lanes.Lanes[T](), p.a.Count-first)
	svd.ValuesGroup(count, p.a.Rows, p.a.Cols, p.a.Data[first*p.a.Stride:], p.a.LD, p.a.Stride, p.s.Data[first*p.s.Stride:], p.s.Stride, buf, j.info[first:first+count])
}

// perMatrix runs internal/svd's one-sided Jacobi (runJacobi) or its
// bidiagonal QR (runBidiag) on matrices [lo, hi), writing their outputs in
// place.
func (j *job[T]) perMatrix(w, lo, hi int) {
	p := &j.p
	m, n := p.a.Rows, p.a.Cols
	k := min(m, n)
	work := j.ws[w*j.slot : (w+1)*j.slot]
	ju, jvt := p.jobu.kernelJob(), p.jobvt.kernelJob()
	for i := lo; i < hi; i++ {
		// A non-finite matrix gets info k+1 from the kernel's first
		// check, its outputs untouched.
		a := matrix(p.a, i)
		u, ldu := vectorsOf(p.jobu, p.u, i)
		vt, ldvt := vectorsOf(p.jobvt, p.vt, i)
		if j.kernel == runBidiag {
			j.info[i] = int32(svd.Bidiag(m, n, a, p.a.LD, values(p.s, i, k), ju, jvt, u, ldu, vt, ldvt, work))
			continue
		}
		j.info[i] = int32(svd.Jacobi(m, n, a, p.a.LD, values(p.s, i, k), ju, jvt, u, ldu, vt, ldvt, work))
	}
}

// matrix is the column-major storage of matrix i of b.
func matrix[T batchlas.Float](b batchlas.Batch[T], i int) []T {
	o := i * b.Stride
	return b.Data[o : o+(b.Cols-1)*b.LD+b.Rows]
}

// values is the first k entries of vector i of s.
func values[T batchlas.Float](s batchlas.Vectors[T], i, k int) []T {
	o := i * s.Stride
	return s.Data[o : o+k : o+k]
}

// vectorsOf is matrix i of b and its leading dimension where job computes
// vectors, nil and 1 where it does not.
func vectorsOf[T batchlas.Float](job Job, b batchlas.Batch[T], i int) ([]T, int) {
	if job == NoVectors {
		return nil, 1
	}
	return matrix(b, i), b.LD
}
