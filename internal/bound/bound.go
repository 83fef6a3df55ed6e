package bound

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// Kernel is a bound kernel: the op's job, as the Body its batch loop
// runs (per matrix) or the Grouper its groups loop runs (lanes), and the
// workspace of every worker.
type Kernel[T batchlas.Float] struct {
	group, workers int
	chunks         parallel.Body
	groups         lanes.Grouper[T]
	ws             []T
	slot           int // a lanes worker's scratch in ws
}

// PerMatrix binds a per-matrix kernel: body.Chunk(w, lo, hi) runs
// matrices [lo, hi) on worker w with that worker's scratch (the body
// holds it).
func PerMatrix[T batchlas.Float](workers int, body parallel.Body) Kernel[T] {
	return Kernel[T]{group: 1, workers: workers, chunks: body}
}

// Groups binds a kernel across matrices: g.Group(buf, first) runs the
// group of lanes.Lanes[T]() matrices from first with buf, worker w's
// slot of ws.
func Groups[T batchlas.Float](workers int, g lanes.Grouper[T], ws []T, slot int) Kernel[T] {
	return Kernel[T]{group: lanes.Lanes[T](), workers: workers, groups: g, ws: ws, slot: slot}
}

// Group is the alignment of Run's ranges: 1, or a lanes group of 8
// (float64) or 16 (float32) matrices.
func (k *Kernel[T]) Group() int { return max(k.group, 1) }

// Workers is the number of workers whose scratch is bound: Run's w is
// below it.
func (k *Kernel[T]) Workers() int { return max(k.workers, 1) }

// Run runs the kernel on matrices [lo, hi) on worker w (w < Workers(), lo
// a multiple of Group(), hi a multiple of it or the batch's end). Two
// Runs at once must have different workers and ranges. A kernel bound to
// nothing (an empty batch) does nothing.
func (k *Kernel[T]) Run(w, lo, hi int) {
	switch {
	case lo >= hi:
	case k.groups != nil:
		buf := k.ws[w*k.slot : (w+1)*k.slot]
		for first := lo; first < hi; first += k.group {
			k.groups.Group(buf, first)
		}
	case k.chunks != nil:
		k.chunks.Chunk(w, lo, hi)
	}
}
