package syrk

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runTile jobKernel = iota
	runVendor
	runScale // C = beta*C on the triangle: alpha = 0 or k = 0
)

// job is the state of one syrk batch loop, the Body parallel.RunScratch
// hands to its workers. It comes from parallel's free list, so a call with
// its workspace supplied allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem[T]
	ws     []T // per-worker scratch, slot elements each (tile)
	slot   int
}

// runJob runs kernel over the batch of p.c, with slot elements of ws per
// worker (slot 0: no scratch, as many workers as the call may use).
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem[T], ws []T, slot int) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.ws, j.slot = kernel, *p, ws, slot
	work := flopsPerMatrix(p.n, p.k)
	if kernel == runScale {
		work = float64(p.n * p.n)
	}
	workers := parallel.Workers(ctx)
	if slot > 0 {
		workers = len(ws) / parallel.Pad(slot)
	}
	return parallel.RunScratch(ctx, p.c.Count, work, workers, j)
}

// Chunk computes C_lo .. C_{hi-1} on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	p := &j.p
	a, c := p.a, p.c
	for i := lo; i < hi; i++ {
		ci := c.Data[i*c.Stride:]
		switch j.kernel {
		case runTile:
			if i+1 < hi {
				// The next matrix's A and C triangle, while this one is
				// computed: at small orders the batch streams from
				// memory, and the hardware prefetcher does not cross
				// from one matrix to the next in time.
				rows, cols := p.n, p.k
				if p.trans {
					rows, cols = p.k, p.n
				}
				simd.Prefetch(a.Data[(i+1)*a.Stride:], rows, a.LD, cols, 0)
				tri := 2
				if p.lower {
					tri = 1
				}
				simd.Prefetch(c.Data[(i+1)*c.Stride:], p.n, c.LD, p.n, tri)
			}
			s := j.ws[w*parallel.Pad(j.slot):]
			syrkTile(p.lower, p.trans, p.n, p.k, p.alpha, a.Data[i*a.Stride:], a.LD, p.beta, ci, c.LD, s[:j.slot])
		case runVendor:
			j.vendor(i)
		case runScale:
			scaleTriangle(p.lower, p.n, p.beta, ci, c.LD)
		}
	}
}
