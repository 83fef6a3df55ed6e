package gesv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/stash"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
)

// The nested family: getrf on the whole batch, then getrs on the whole
// batch, both through their public entry points so each chooses its own
// kernel for the batch and is traced beneath gesv. A singular matrix's B
// is copied aside before getrs and put back after it (interrupted or
// not), so it is left exactly as it was: a copy the size of the
// singular systems' B, none when there is none (as posv's nested does).
// Solving only the runs of consecutive non-singular systems instead made
// one getrs call per run, each deciding its kernel (and its trsm's) for
// its own smaller batch: a good system's X then depended on where its
// singular neighbours were, by an ulp where the kernels round apart.

// launchNested factors and solves every system, writing each matrix's
// info. ws is nil (the nested calls allocate) or holds bufferSize
// elements.
func launchNested[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T, info []int32) error {
	count := a.Count
	var wsF []T
	if ws != nil {
		need, err := getrf.BufferSize(ctx, a, ipiv)
		if err != nil {
			return err
		}
		wsF = ws[:need]
	}
	var singular []int
	if err := getrf.Getrf(ctx, a, ipiv, wsF); err != nil {
		// The targets of errors.As move to the heap: declared on the
		// error path only, a call that succeeds allocates nothing.
		var ne *batchlas.NumericalError
		var ie *batchlas.InterruptedError
		switch {
		case errors.As(err, &ne):
			for k, i := range ne.Index {
				info[i] = int32(ne.Info[k])
			}
			singular = ne.Index
		case errors.As(err, &ie):
			// No system is complete before its B is solved; the factors
			// getrf did not touch are untouched systems.
			return &batchlas.InterruptedError{Count: count, Touched: ie.Touched, Err: ie.Err}
		default:
			return err
		}
	}
	if p.nrhs == 0 || len(singular) == count {
		return nil
	}
	// The copy is made only when a system is singular, a call that
	// returns an error (which allocates anyway).
	saved := stash.Save(b, singular)
	err := solveAll(ctx, a, ipiv, b, ws)
	stash.Restore(b, singular, saved)
	if err != nil {
		var ie *batchlas.InterruptedError
		if errors.As(err, &ie) {
			// Every A_i has been factored; getrs completed a prefix of
			// the solves, and the singular systems' B_i are as they were,
			// so those right after the prefix are complete too.
			done := ie.Completed
			for done < count && info[done] != 0 {
				done++
			}
			return &batchlas.InterruptedError{Count: count, Completed: done, Touched: count, Err: ie.Err}
		}
	}
	return err
}

// solveAll solves every system with getrs, in the workspace sized for it
// (nil: getrs allocates).
func solveAll[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T) error {
	var wsR []T
	if ws != nil {
		need, err := getrs.BufferSize(ctx, batchlas.NoTrans, a, ipiv, b)
		if err != nil {
			return err
		}
		wsR = ws[:need]
	}
	return getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, b, wsR)
}
