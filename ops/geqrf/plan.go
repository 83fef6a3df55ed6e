package geqrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// Plan is geqrf's decision for one batch, bound to its kernel and its own
// workspace, for a composite that factors the batch a range of matrices
// at a time with other work on the same matrices around each range
// (linalg.QR copies A in before and R out after, then forms Q, while the
// matrices are in the caches). NewPlan makes the decision, traces it and
// counts it as Geqrf does; Run does the work.
type Plan[T batchlas.Float] struct {
	j       job[T]
	group   int // a Run's ranges start at multiples of it (lanes: a group)
	workers int
	slot    int // lanes: one worker's scratch in ws
	ws      []T
}

// NewPlan makes the decision Geqrf makes for a and tau (the same checks,
// the same errors) and binds it: Run(w, lo, hi) then factors matrices
// [lo, hi) of a in place and writes their factors to tau. An empty batch
// gives a plan whose Run does nothing.
func NewPlan[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T]) (*Plan[T], error) {
	ctx = opkit.Context(ctx)
	if err := check(a, tau); err != nil {
		return nil, err
	}
	p := &Plan[T]{group: 1, workers: parallel.Workers(ctx)}
	if a.Empty() {
		return p, nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(a)
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		// What launch runs for c, bound instead of run.
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "a", "kernel %s cannot factor %dx%d on device %s; pin another kernel or unset the pin", c, a.Rows, a.Cols, dev.Key)
		}
		p.ws = make([]T, bufferSize(ctx, c, a))
		p.j.a, p.j.tau = a, tau
		switch c.Family() {
		case unblockedFamily:
			p.j.kernel = runUnblocked
		case lanesFamily:
			p.j.kernel, p.group, p.slot = runLanes, lanes.Lanes[T](), lanesSlot[T](a.Rows, a.Cols)
		case blockedFamily:
			nb := c.Field("nb")
			p.j.kernel, p.j.nb, p.j.ws, p.j.slot = runBlocked, nb, p.ws, blockedScratch(a, nb)
		case vendorFamily:
			buf, ok := any(p.ws).([]float64)
			if !ok {
				return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
			}
			p.j.kernel, p.j.buf, p.j.slot = runVendor, buf, vendorScratch(a.Rows, a.Cols)
		default:
			return opkit.Argf(opName, "a", "kernel %s is not a geqrf family", c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Group is the alignment of Run's ranges: 1, or the lanes kernel's group
// of 8 (float64) or 16 (float32) matrices.
func (p *Plan[T]) Group() int { return p.group }

// Workers is the number of workers whose scratch the plan holds: Run's w
// is below it.
func (p *Plan[T]) Workers() int { return p.workers }

// Run factors matrices [lo, hi) on worker w (w < Workers(), lo a multiple
// of Group(), hi a multiple of it or the batch's end). Two Runs at once
// must have different workers and ranges.
func (p *Plan[T]) Run(w, lo, hi int) {
	if lo >= hi {
		return
	}
	if p.j.kernel == runLanes {
		buf := p.ws[w*p.slot : (w+1)*p.slot]
		for first := lo; first < hi; first += p.group {
			p.j.Group(buf, first)
		}
		return
	}
	p.j.Chunk(w, lo, hi)
}
