package posv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/stash"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potrs"
)

// nestedPosv factors the whole batch with the potrf op, then solves it
// with the potrs op, both through their public entry points with this
// call's context, so their decisions (and potrs's nested trsm ones) are
// traced under posv's line and served by their own tables. Both get this
// call's workspace, which nestedSize sized for the larger of the two
// (nil: they allocate).
//
// The systems potrf reports not positive definite must keep their B_i as
// it was. potrs runs once on the whole batch, its one decision the one
// BufferSize sized for, and the failed systems' B_i are copied aside
// before it and put back after it (interrupted or not): a copy the size of
// the failures, not of B, and none when every matrix is positive definite.
// Solving only the systems between failures instead would make one potrs
// call (and decision, and trace line) per run of good systems, each sized
// for its own batch. When every system failed there is nothing to solve.
func nestedPosv[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T, info []int32) error {
	err := potrf.Potrf(ctx, uplo, a, ws)
	var failed []int
	if err != nil {
		// The targets of errors.As move to the heap: declared on the
		// error path only, a call that succeeds allocates nothing.
		var ie *batchlas.InterruptedError
		var ne *batchlas.NumericalError
		switch {
		case errors.As(err, &ie):
			// No system is solved; potrf wrote the matrices of a it reached.
			return &batchlas.InterruptedError{Count: a.Count, Touched: ie.Touched, Err: ie.Err}
		case errors.As(err, &ne):
			for j, i := range ne.Index {
				info[i] = int32(ne.Info[j])
			}
			failed = ne.Index
		default:
			return err
		}
	}
	if b.Empty() || len(failed) == b.Count {
		return nil
	}
	saved := stash.Save(b, failed)
	err = potrs.Potrs(ctx, uplo, a, b, ws)
	stash.Restore(b, failed, saved)
	if err == nil {
		return nil
	}
	if ie := (*batchlas.InterruptedError)(nil); errors.As(err, &ie) {
		// Every A_i is factored; potrs completed a prefix of the solves.
		return &batchlas.InterruptedError{Count: a.Count, Completed: ie.Completed, Touched: a.Count, Err: ie.Err}
	}
	return err
}

// nestedSize is the workspace of nested: the larger of potrf's and
// potrs's BufferSize under ctx, so one buffer serves both in turn.
func nestedSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	n1, err := potrf.BufferSize(ctx, uplo, a)
	if err != nil {
		return 0, err
	}
	n2, err := potrs.BufferSize(ctx, uplo, a, b)
	if err != nil {
		return 0, err
	}
	return max(n1, n2), nil
}
