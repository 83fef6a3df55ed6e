package lanes

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// ForGroups is the batch loop every lanes kernel shares: it cuts a batch
// of count matrices into groups of Lanes[T]() and calls group(buf, first)
// for each, first being the group's first matrix, on the workers of
// package parallel. Each worker gets its own slot elements of ws as buf;
// when ws is shorter than one slot (a call without workspace), slots are
// allocated for every worker. flops is the work of one matrix (the
// workers' split follows it). An interruption is reported in matrices, as
// every kernel of the ops reports it: the groups done, times the lanes,
// capped at count.
func ForGroups[T batchlas.Float](ctx context.Context, count int, flops float64, ws []T, slot int, group func(buf []T, first int)) error {
	L := Lanes[T]()
	if len(ws) < slot {
		ws = make([]T, parallel.Workers(ctx)*slot)
	}
	groups := (count + L - 1) / L
	err := parallel.ForScratch(ctx, groups, float64(L)*flops, len(ws)/max(slot, 1), func(wk, lo, hi int) {
		buf := ws[wk*slot : (wk+1)*slot]
		for g := lo; g < hi; g++ {
			group(buf, g*L)
		}
	})
	var ie *batchlas.InterruptedError
	if errors.As(err, &ie) {
		done := min(count, ie.Completed*L)
		return &batchlas.InterruptedError{Count: count, Completed: done, Touched: done, Err: ie.Err}
	}
	return err
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
