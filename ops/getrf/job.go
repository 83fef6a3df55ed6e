package getrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runTiny jobKernel = iota
	runUnblocked
	runRecursive
	runBatchedPanel // batched: the step's panel and its interchanges
	runLanes
	runVendor
)

// job is the state of one getrf batch loop, the Body parallel.Run (or the
// Grouper lanes.RunGroups) hands to its workers. It comes from parallel's
// free list, so a call with its workspace supplied allocates nothing: a
// closure over the operands would escape to the heap on every call, and
// so would a generic kernel's function value.
type job[T batchlas.Float] struct {
	kernel jobKernel
	a      batchlas.Batch[T]
	ipiv   batchlas.Vectors[int32]
	info   []int32
	small  T // lu.SafeMin

	k0, r0 int  // batched: the step's columns [k0, r0)
	last   bool // batched: the last step
	gld    int  // lanes: the group's leading dimension, in vectors

	buf []float64 // vendor: per-worker row-major copies
	nn  int       // their stride
}

// Chunk factors matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	a, ipiv, info := j.a, j.ipiv, j.info
	n, ld, stride := a.Rows, a.LD, a.Stride
	switch j.kernel {
	case runTiny:
		tinyRange(a, ipiv, info, j.small, lo, hi)
	case runUnblocked, runRecursive:
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			if j.kernel == runUnblocked {
				lu.Getf2(m, ld, n, 0, n, 0, n, pivots(ipiv, i, n), j.small)
			} else {
				lu.Recursive(m, ld, n, pivots(ipiv, i, n), j.small)
			}
			info[i] = lu.DiagInfo(m, ld, n)
		}
	case runBatchedPanel:
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			piv := pivots(ipiv, i, n)
			lu.Getf2(m, ld, n, j.k0, j.r0, j.k0, j.r0, piv, j.small)
			lu.Laswp(m, ld, n, 0, j.k0, j.k0, j.r0, piv)
			lu.Laswp(m, ld, n, j.r0, n, j.k0, j.r0, piv)
			if j.last {
				info[i] = lu.DiagInfo(m, ld, n)
			}
		}
	case runVendor:
		j.vendor(w, lo, hi)
	}
}

// Group factors the group of matrices from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	a, n, L, gld := j.a, j.a.Rows, lanes.Lanes[T](), j.gld
	ga, piv := buf[:n*gld*L], buf[n*gld*L:(n*gld+n)*L]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	lanes.PadIdentity(ga, n, gld, count)
	lanes.LU(ga, nil, piv, n, 0, gld, j.small)
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, n, n, uint64(1)<<count-1, gld)
	for l := range count {
		i := first + l
		pv := pivots(j.ipiv, i, n)
		for c := range pv {
			pv[c] = int32(piv[c*L+l])
		}
		j.info[i] = lu.DiagInfo(a.Data[i*a.Stride:i*a.Stride+(n-1)*a.LD+n], a.LD, n)
	}
}

// runJob runs kernel over the batch of a on a recycled job.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.info, j.small = kernel, a, ipiv, info, lu.SafeMin[T]()
	return parallel.Run(ctx, a.Count, flopsPerMatrix(a.Rows), j)
}
