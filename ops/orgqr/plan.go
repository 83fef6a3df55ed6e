package orgqr

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/bound"
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
	bound.Kernel[T] // Group, Workers and Run
	j               job[T]
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
	p := &Plan[T]{}
	workers := parallel.Workers(ctx)
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
		ws := make([]T, bufferSize[T](ctx, c, &pv))
		p.j.p, p.j.a, p.j.tau, p.j.ws, p.j.per = pv, a, tau, ws, perWorker[T](c, &pv)
		switch c.Family() {
		case unblocked:
			p.j.kernel = runUnblocked
		case lanesFamily:
			p.j.kernel = runLanes
			p.Kernel = bound.Groups[T](workers, &p.j, ws, lanesSlot[T](&pv))
			return nil
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
		p.Kernel = bound.PerMatrix[T](workers, &p.j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}
