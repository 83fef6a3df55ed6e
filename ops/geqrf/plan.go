package geqrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/bound"
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
	bound.Kernel[T] // Group, Workers and Run
	j               job[T]
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
	p := &Plan[T]{}
	workers := parallel.Workers(ctx)
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
		ws := make([]T, bufferSize(ctx, c, a))
		p.j.a, p.j.tau = a, tau
		switch c.Family() {
		case unblockedFamily:
			p.j.kernel = runUnblocked
		case lanesFamily:
			p.j.kernel = runLanes
			p.Kernel = bound.Groups[T](workers, &p.j, ws, lanesSlot[T](a.Rows, a.Cols))
			return nil
		case blockedFamily:
			nb := c.Field("nb")
			p.j.kernel, p.j.nb, p.j.ws, p.j.slot = runBlocked, nb, ws, blockedScratch(a, nb)
		case vendorFamily:
			buf, ok := any(ws).([]float64)
			if !ok {
				return opkit.Argf(opName, "a", "the vendor kernel is float64 only; pin a native kernel for float32")
			}
			p.j.kernel, p.j.buf, p.j.slot = runVendor, buf, vendorScratch(a.Rows, a.Cols)
		default:
			return opkit.Argf(opName, "a", "kernel %s is not a geqrf family", c)
		}
		p.Kernel = bound.PerMatrix[T](workers, &p.j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}
