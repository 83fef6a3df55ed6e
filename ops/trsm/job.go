package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runZero jobKernel = iota
	runDirectSmall
	runDirect
	runVector
	runSIMD
	runVendor
)

// job is the state of one trsm batch loop, the Body parallel.Run hands to
// its workers. It holds the problem and operands by value and comes from
// parallel's free list, so a call with its workspace supplied allocates
// nothing: a closure over them would escape to the heap on every call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem
	alpha  T
	a, b   batchlas.Batch[T]
	ws     []T

	g          geom
	per, np    int  // per-worker scratch stride; direct: the packed triangle's size
	unit, left bool // diag == Unit; side == Left
	cis, cjs   int  // direct: C(i, j)'s strides in B
	tri        int  // vector: the triangle to prefetch
	lde        int  // vector, side Left: E copied with this leading dimension (0: read in place)
}

// runJob runs kernel over the batch of b on a recycled job, on at most
// slots workers when slots > 0; set fills in the kernel's own fields.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem, alpha T, a, b batchlas.Batch[T], ws []T, work float64, slots int, set func(j *job[T])) error {
	j := parallel.Get[job[T]]()
	j.kernel, j.p, j.alpha, j.a, j.b, j.ws = kernel, *p, alpha, a, b, ws
	if set != nil {
		set(j)
	}
	var err error
	if slots > 0 {
		err = parallel.RunScratch(ctx, b.Count, work, slots, j)
	} else {
		err = parallel.Run(ctx, b.Count, work, j)
	}
	parallel.Put(j)
	return err
}

// Chunk runs matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	switch j.kernel {
	case runZero:
		zeroRange(j.b, lo, hi)
	case runDirectSmall:
		a, b := j.a, j.b
		for i := lo; i < hi; i++ {
			ai, bi := a.Data[i*a.Stride:], b.Data[i*b.Stride:]
			if j.left && tinyDiagonal(ai, j.g, j.unit, j.p.t) {
				solveDivide(ai, j.g, j.p.t, j.p.r, bi, j.cis, j.cjs, j.alpha)
				continue
			}
			solveSmall(ai, j.g, j.unit, j.p.t, j.p.r, bi, j.cis, j.cjs, j.alpha)
		}
	case runDirect:
		j.direct(w, lo, hi)
	case runVector:
		j.vector(w, lo, hi)
	case runSIMD:
		j.simd(lo, hi)
	case runVendor:
		j.vendor(lo, hi)
	}
}
