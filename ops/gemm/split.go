package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// splitMinCols and splitMinFlops bound the split of one matrix over the
// workers (splitParts): each part has at least this many columns of C,
// and a matrix is split only when it is worth much more than waking a
// worker. On the development VM a helper starts working about 0.15 ms
// after it is asked for: a 256-order float64 product (34 Mflop, 0.35 ms on
// one core) ran no faster on two, a 320-order one (66 Mflop) 1.4x faster.
const (
	splitMinCols  = 64
	splitMinFlops = 64 << 20
)

// splitParts is the number of column parts each matrix is cut into so that
// a batch smaller than the call's workers still keeps them busy (a single
// big product uses every core): 1 when the batch alone fills them or the
// matrices are too small to be worth splitting. slots caps the workers
// (the per-worker scratch a kernel was given).
func splitParts[T batchlas.Float](ctx context.Context, p *problem[T], slots int, flops float64) int {
	workers := min(parallel.Workers(ctx), max(slots, 1))
	if p.c.Count >= workers || flops < splitMinFlops {
		return 1
	}
	return max(1, min(workers, p.n/splitMinCols))
}

// splitColumns runs the batch one matrix at a time, each cut into parts
// blocks of whole columns of C (multiples of both tiles' widths) run on
// different workers: kernel (runSIMD or runPacked, its fields filled in by
// set) runs the sub-problem of each part's columns on the operands where
// they start (job.splitParts). A column
// of C depends only on the same column of op(B), so every element of C
// sums the same products in the same order as on the whole matrix, and
// the result is the same bit for bit for any number of parts or workers.
// A done ctx stops the call between matrices, or inside one with that
// matrix reported as possibly partly written (Touched = Completed+1).
func splitColumns[T batchlas.Float](ctx context.Context, p *problem[T], parts, slots int, flops float64, kernel jobKernel, set func(j *job[T])) error {
	a, b, c := p.a, p.b, p.c
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.split = kernel, *p, true
	if set != nil {
		set(j)
	}
	j.cols = roundUp((p.n+parts-1)/parts, wideMaxNR)
	j.bsc = p.b.LD // op(B)'s column stride
	if p.transB {
		j.bsc = 1
	}
	for i := range c.Count {
		if err := ctx.Err(); err != nil {
			return &batchlas.InterruptedError{Count: c.Count, Completed: i, Touched: i, Err: err}
		}
		j.ai, j.bi, j.ci = a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:]
		err := parallel.RunScratch(ctx, parts, flops/float64(parts), slots, j)
		if ie, ok := err.(*batchlas.InterruptedError); ok {
			touched := i
			if ie.Touched > 0 {
				touched = i + 1
			}
			return &batchlas.InterruptedError{Count: c.Count, Completed: i, Touched: touched, Err: ie.Err}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// splitParts runs parts lo .. hi-1 of the matrix j.ai, j.bi, j.ci.
func (j *job[T]) splitParts(w, lo, hi int) {
	p := &j.p
	for q := lo; q < hi; q++ {
		j0 := q * j.cols
		if j0 >= p.n {
			continue
		}
		sub := *p
		sub.n = min(j.cols, p.n-j0)
		a, b, c := j.ai, j.bi[j0*j.bsc:], j.ci[j0*p.c.LD:]
		if j.kernel == runPacked {
			packedOne(&sub, j.mc, j.kc, j.ws[w*j.per:w*j.per+j.need], a, b, c)
		} else {
			simdMatrix(&sub, a, b, c)
		}
	}
}
