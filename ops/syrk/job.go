package syrk

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runTile jobKernel = iota
	runTri            // the tile family where the triangle kernel runs (triRuns)
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
	for i := lo; i < hi; i++ {
		switch j.kernel {
		case runTile:
			s := j.ws[w*parallel.Pad(j.slot):]
			syrkTile(p, i, i+1 < hi, s[:j.slot])
		case runTri:
			s := j.ws[w*parallel.Pad(j.slot):]
			syrkTri(p, i, i+1 < hi, s[:j.slot])
		case runVendor:
			j.vendor(i)
		case runScale:
			scaleTriangle(p.lower, p.n, p.beta, p.c.Data[i*p.c.Stride:], p.c.LD)
		}
	}
}
