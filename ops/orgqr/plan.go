package orgqr

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// Plan is orgqr's decision for one batch, bound to its kernel and its own
// workspace, for a composite that forms the Qs a range of matrices at a
// time with other work on the same matrices before each range (linalg.QR
// factors them there first, while they are in the caches). NewPlan makes
// the decision, traces it and counts it as Orgqr does; Run does the work.
type Plan[T batchlas.Float] struct {
	j       job[T]
	group   int // a Run's ranges start at multiples of it (lanes: a group)
	workers int
	slot    int // lanes: one worker's scratch in ws
	ws      []T
}

// NewPlan makes the decision Orgqr makes for a and tau (the same checks,
// the same errors) and binds it: Run(w, lo, hi) then forms Q in matrices
// [lo, hi) of a from the reflectors they hold and tau's factors. An empty
// batch gives a plan whose Run does nothing.
func NewPlan[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T]) (*Plan[T], error) {
	ctx = opkit.Context(ctx)
	pv, err := check(a, tau)
	if err != nil {
		return nil, err
	}
	p := &Plan[T]{group: 1, workers: parallel.Workers(ctx)}
	if a.Empty() {
		return p, nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := pv.key(a.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		// What Orgqr's launch runs for c, bound instead of run.
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d on %s; pin another kernel or unset the pin", c, pv.m, pv.n, dev.Key)
		}
		p.ws = make([]T, bufferSize[T](ctx, c, &pv))
		p.j.p, p.j.a, p.j.tau, p.j.ws, p.j.per = pv, a, tau, p.ws, perWorker[T](c, &pv)
		switch c.Family() {
		case unblocked:
			p.j.kernel = runUnblocked
		case lanesFamily:
			p.j.kernel, p.group, p.slot = runLanes, lanes.Lanes[T](), lanesSlot[T](&pv)
		case blocked:
			p.j.kernel, p.j.nb = runBlocked, c.Field("nb")
		case vendor:
			if vendorSize(&pv) == 0 {
				return opkit.Argf(opName, "route", "the vendor kernel is not compiled into this build (-tags novendor); pin native or a native choice")
			}
			p.j.kernel = runVendor
		default:
			return opkit.Argf(opName, "route", "choice %s has no launch", c)
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

// Run forms Q in matrices [lo, hi) on worker w (w < Workers(), lo a
// multiple of Group(), hi a multiple of it or the batch's end). Two Runs
// at once must have different workers and ranges.
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
