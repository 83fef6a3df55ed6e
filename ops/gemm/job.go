package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runDirect jobKernel = iota
	runScale
	runSmallDots
	runSmallNN
	runSmallTN
	runSmallNT
	runSmallTT
	runSIMD
	runSwapped
	runPacked
	runVendor
)

// job is the state of one gemm batch loop, the Body parallel.Run hands to
// its workers. It holds the problem by value and comes from parallel's
// free list, so a call with its workspace supplied allocates nothing: a
// closure over the problem would escape to the heap on every call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem[T]

	// packed: the blocking, the per-worker scratch and its stride.
	mc, kc, need, per int
	ws                []T

	// swapped: the buffer a matrix needs and what a group shares.
	swPer, swShared int

	// A split matrix (split.go): its operands where they start, the
	// columns of each part and op(B)'s column stride.
	split      bool
	ai, bi, ci []T
	cols, bsc  int
}

// runJob runs kernel over the batch of p on a recycled job; set fills in
// the kernel's own fields.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem[T], flops float64, set func(j *job[T])) error {
	j := parallel.Get[job[T]]()
	j.kernel, j.p = kernel, *p
	if set != nil {
		set(j)
	}
	err := parallel.Run(ctx, p.c.Count, flops, j)
	parallel.Put(j)
	return err
}

// Chunk runs matrices [lo, hi), or the parts [lo, hi) of a split matrix.
func (j *job[T]) Chunk(w, lo, hi int) {
	if j.split {
		j.splitParts(w, lo, hi)
		return
	}
	p := &j.p
	a, b, c := p.a, p.b, p.c
	switch j.kernel {
	case runDirect:
		for i := lo; i < hi; i++ {
			directOne(p, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
		}
	case runScale:
		scaleRange(p, lo, hi)
	case runSmallDots:
		smallDots(p, lo, hi)
	case runSmallNN:
		smallNN(p, lo, hi)
	case runSmallTN:
		smallTN(p, lo, hi)
	case runSmallNT:
		smallNT(p, lo, hi)
	case runSmallTT:
		smallTT(p, lo, hi)
	case runSIMD:
		simdRange(p, lo, hi)
	case runSwapped:
		swappedChunk(p, j.swPer, j.swShared, lo, hi)
	case runPacked:
		scratch := j.ws[w*j.per : w*j.per+j.need]
		for i := lo; i < hi; i++ {
			packedOne(p, j.mc, j.kc, scratch, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
		}
	case runVendor:
		vendorRange(p, lo, hi)
	}
}
