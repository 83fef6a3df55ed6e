package lanes

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// Grouper is a lanes kernel's work: Group runs the group of matrices
// starting at matrix first, with one worker's scratch buf. Kernels pass a
// pointer to a job struct from parallel.Get (see RunGroups).
type Grouper[T batchlas.Float] interface {
	Group(buf []T, first int)
}

// GroupFunc adapts a closure to a Grouper, for ForGroups.
type GroupFunc[T batchlas.Float] func(buf []T, first int)

// Group calls f.
func (f GroupFunc[T]) Group(buf []T, first int) { f(buf, first) }

// ForGroups is RunGroups with the work as a closure, which escapes to the
// heap with what it captures: for callers off the allocation-free path.
func ForGroups[T batchlas.Float](ctx context.Context, count int, flops float64, ws []T, slot int, group func(buf []T, first int)) error {
	return RunGroups[T](ctx, count, flops, ws, slot, GroupFunc[T](group))
}

// RunGroups is the batch loop every lanes kernel shares: it cuts a batch
// of count matrices into groups of Lanes[T]() and calls g.Group(buf,
// first) for each, first being the group's first matrix, on the workers of
// package parallel. Each worker gets its own slot elements of ws as buf;
// when ws is shorter than one slot (a call without workspace), slots are
// allocated for every worker. flops is the work of one matrix (the
// workers' split follows it). An interruption is reported in matrices, as
// every kernel of the ops reports it: the groups done, times the lanes,
// capped at count. With ws supplied and g a pooled job it allocates
// nothing.
func RunGroups[T batchlas.Float](ctx context.Context, count int, flops float64, ws []T, slot int, g Grouper[T]) error {
	L := Lanes[T]()
	if len(ws) < slot {
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	groups := (count + L - 1) / L
	j := parallel.Get[groupsJob[T]]()
	j.g, j.ws, j.slot, j.lanes = g, ws, slot, L
	err := parallel.RunScratch(ctx, groups, float64(L)*flops, len(ws)/max(slot, 1), j)
	parallel.Put(j)
	if err == nil {
		return nil
	}
	var ie *batchlas.InterruptedError // here only: errors.As moves it to the heap
	if errors.As(err, &ie) {
		done := min(count, ie.Completed*L)
		return &batchlas.InterruptedError{Count: count, Completed: done, Touched: done, Err: ie.Err}
	}
	return err
}

// groupsJob is RunGroups' loop body: groups [lo, hi) on worker wk's slot.
type groupsJob[T batchlas.Float] struct {
	g           Grouper[T]
	ws          []T
	slot, lanes int
}

func (j *groupsJob[T]) Chunk(wk, lo, hi int) {
	buf := j.ws[wk*j.slot : (wk+1)*j.slot]
	for g := lo; g < hi; g++ {
		j.g.Group(buf, g*j.lanes)
	}
}

// PadIdentity sets the lanes from count on of a gathered group of n x n
// matrices (columns gld vectors apart) to the identity: Gather leaves them
// zero, and a factorisation of the identity neither fails nor divides by
// zero.
func PadIdentity[T batchlas.Float](g []T, n, gld, count int) {
	L := Lanes[T]()
	for l := count; l < L; l++ {
		for c := 0; c < n; c++ {
			g[(c*gld+c)*L+l] = 1
		}
	}
}
