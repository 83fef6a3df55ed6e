package trmm

import (
	"context"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runTile jobKernel = iota
	runVendor
	runSwapped
	runCopies // gemm's squares and copies of B (gemm.go)
	runMend   // gemm's B_i that held an Inf or NaN, from their copies (finite.go)
	runZero   // alpha = 0: B = 0
)

// job is the state of one trmm batch loop, the Body parallel.RunScratch
// hands to its workers. It comes from parallel's free list, so a call with
// its workspace supplied allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem[T]
	ws     []T // per-worker scratch, Pad(slot) elements each (tile); gemm's squares and copies (runCopies), its copies (runMend)
	slot   int
	group  int // the tile and swapped kernels' matrices a group (tileGroups, swappedGroups), 1 for trmmTile
	// nonFinite is set by a runCopies chunk whose copies of B hold an
	// Inf or NaN (copyPass).
	nonFinite atomic.Bool
}

// runJob runs kernel over the batch of p.b, with slot elements of ws per
// worker (slot 0: no scratch, as many workers as the call may use).
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem[T], ws []T, slot int) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.ws, j.slot, j.group = kernel, *p, ws, slot, 1
	switch kernel {
	case runTile:
		j.group = tileGroup(p, opkit.DeviceFrom(ctx))
	case runSwapped:
		j.group = swappedGroup(p, opkit.DeviceFrom(ctx))
	}
	work := flopsPerMatrix(p.t, p.r)
	if kernel == runZero {
		work = float64(p.m * p.n)
	}
	workers := parallel.Workers(ctx)
	if slot > 0 {
		workers = len(ws) / parallel.Pad(slot)
	}
	return parallel.RunScratch(ctx, p.b.Count, work, workers, j)
}

// Chunk computes B_lo .. B_{hi-1} on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	p := &j.p
	a, b := p.a, p.b
	left, lower := p.side == batchlas.Left, p.uplo == batchlas.Lower
	trans, unit := p.ta == batchlas.Trans, p.diag == batchlas.Unit
	switch {
	case j.kernel == runMend:
		mendNonFinite(p, lo, hi-lo, j.ws[lo*p.m*p.n:], false)
		return
	case j.kernel == runCopies:
		for i := lo; i < hi; i++ {
			j.copies(i)
		}
		// The chunk's copies of B, tight after the squares, while they
		// are in this worker's cache.
		squares, _ := gemmCopies(p, b.Count)
		mn := p.m * p.n
		if !finite(j.ws[squares+lo*mn:], (hi-lo)*mn, 1, (hi-lo)*mn) {
			j.nonFinite.Store(true)
		}
		return
	case j.kernel == runSwapped:
		swappedGroups(p, j.group, lo, hi, j.ws[w*parallel.Pad(j.slot):][:j.slot])
		return
	case j.kernel == runTile && j.group > 1:
		tileGroups(p, j.group, lo, hi, j.ws[w*parallel.Pad(j.slot):][:j.slot])
		return
	}
	for i := lo; i < hi; i++ {
		bi := b.Data[i*b.Stride:]
		switch j.kernel {
		case runTile:
			if i+1 < hi {
				// The next matrix's triangle of A and its B, while this
				// one is computed: at small orders the batch streams from
				// memory, and the hardware prefetcher does not cross from
				// one matrix to the next in time.
				tri := 2
				if lower {
					tri = 1
				}
				simd.Prefetch(a.Data[(i+1)*a.Stride:], p.t, a.LD, p.t, tri)
				simd.Prefetch(b.Data[(i+1)*b.Stride:], p.m, b.LD, p.n, 0)
			}
			if !finite(bi, p.m, p.n, b.LD) {
				p.triangle(i)
				continue
			}
			s := j.ws[w*parallel.Pad(j.slot):]
			trmmTile(left, lower, trans, unit, p.t, p.r, p.alpha, a.Data[i*a.Stride:], a.LD, bi, b.LD, s[:j.slot])
		case runVendor:
			j.vendor(i)
		case runZero:
			for c := range p.n {
				clear(bi[c*b.LD : c*b.LD+p.m])
			}
		}
	}
}
