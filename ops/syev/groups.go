package syev

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// forGroups is the batch loop of the interleaved kernels (lanes, and
// lanestri when tri is set): lanes.ForGroups's loop over groups of
// lanes.Lanes[T]() matrices, each worker with its slot of slot elements of
// ws (allocated here when ws is shorter than one slot), run as a pooled
// job rather than a closure, so that a call with its workspace supplied
// allocates nothing. An interruption is reported in matrices: the groups
// done times the lanes, capped at the batch.
func forGroups[T batchlas.Float](ctx context.Context, tri bool, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, slot int, info []int32) error {
	L := lanes.Lanes[T]()
	if len(ws) < slot {
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	j := parallel.Get[groupJob[T]]()
	*j = groupJob[T]{ctx: ctx, tri: tri, jobz: jobz, uplo: uplo, a: a, w: w, ws: ws, slot: slot, info: info}
	groups := (a.Count + L - 1) / L
	err := parallel.RunScratch(ctx, groups, float64(L)*flopsPerMatrix(a.Rows, jobz), len(ws)/max(slot, 1), j)
	parallel.Put(j)
	if err == nil {
		return nil
	}
	var ie *batchlas.InterruptedError
	if errors.As(err, &ie) {
		done := min(a.Count, ie.Completed*L)
		return &batchlas.InterruptedError{Count: a.Count, Completed: done, Touched: done, Err: ie.Err}
	}
	return err
}

// groupJob is forGroups's loop, the Body its workers share.
type groupJob[T batchlas.Float] struct {
	ctx  context.Context // lanestri's lanes run under it, detached
	tri  bool
	jobz Job
	uplo batchlas.Uplo
	a    batchlas.Batch[T]
	w    batchlas.Vectors[T]
	ws   []T
	slot int
	info []int32
}

// Chunk solves groups lo..hi-1 in worker wk's slot.
func (j *groupJob[T]) Chunk(wk, lo, hi int) {
	L := lanes.Lanes[T]()
	buf := j.ws[wk*j.slot : (wk+1)*j.slot]
	for g := lo; g < hi; g++ {
		if j.tri {
			lanesTriGroup(j.ctx, j.jobz, j.uplo, j.a, j.w, j.info, g*L, buf)
		} else {
			lanesGroup(j.jobz, j.uplo, j.a, j.w, j.info, g*L, buf)
		}
	}
}
