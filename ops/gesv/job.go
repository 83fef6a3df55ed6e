package gesv

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/lusolve"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runFused jobKernel = iota
	runLanes
)

// job is the state of one gesv batch loop, the Body parallel.Run (or the
// Grouper lanes.RunGroups) hands to its workers. It holds the problem and
// operands by value and comes from parallel's free list, so a call with
// its workspace supplied allocates nothing: a closure over them would
// escape to the heap on every call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem
	a, b   batchlas.Batch[T]
	ipiv   batchlas.Vectors[int32]
	info   []int32
}

// Chunk factors and solves systems [lo, hi) (fused).
func (j *job[T]) Chunk(_, lo, hi int) {
	a, b, ipiv, info := j.a, j.b, j.ipiv, j.info
	n, nrhs := j.p.n, j.p.nrhs
	small := lu.SafeMin[T]()
	for i := lo; i < hi; i++ {
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		o := i * ipiv.Stride
		piv := ipiv.Data[o : o+n : o+n]
		lu.Recursive(m, a.LD, n, piv, small)
		info[i] = lu.DiagInfo(m, a.LD, n)
		// A B with no column may hold no storage: it is not indexed.
		if info[i] == 0 && nrhs > 0 {
			lusolve.Solve(false, m, a.LD, n, piv, b.Data[i*b.Stride:], b.LD, nrhs)
		}
	}
}

// Group solves the group of systems from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	lanesGroup(&j.p, j.a, j.ipiv, j.b, j.info, first, buf)
}
