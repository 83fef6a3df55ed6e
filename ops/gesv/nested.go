package gesv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getrs"
)

// The nested family: getrf on the whole batch, then getrs on each run of
// consecutive non-singular matrices (batch views made with Sub, copying
// nothing), both through their public entry points so each chooses its own
// kernel for its batch and is traced beneath gesv. A singular matrix's B
// is never handed to getrs, so it is left exactly as it was. A batch with
// no singular matrix is one getrs call; each singular matrix splits a run
// in two, so a batch where every other matrix is singular makes one getrs
// call per system.

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
		case errors.As(err, &ie):
			// No system is complete before its B is solved; the factors
			// getrf did not touch are untouched systems.
			return &batchlas.InterruptedError{Count: count, Touched: ie.Touched, Err: ie.Err}
		default:
			return err
		}
	}
	if p.nrhs == 0 {
		return nil
	}
	for lo := 0; lo < count; {
		if info[lo] != 0 {
			lo++
			continue
		}
		hi := lo + 1
		for hi < count && info[hi] == 0 {
			hi++
		}
		if err := solveRun(ctx, a, ipiv, b, lo, hi, ws); err != nil {
			if ie := (*batchlas.InterruptedError)(nil); errors.As(err, &ie) {
				// Every system before lo is complete: solved, or singular
				// and left alone; every A_i has been factored.
				return &batchlas.InterruptedError{Count: count, Completed: lo + ie.Completed, Touched: count, Err: ie.Err}
			}
			return err
		}
		lo = hi
	}
	return nil
}

// solveRun solves systems [lo, hi) with getrs. The workspace was sized for
// getrs on the whole batch; a run, a smaller batch, may get another
// kernel with a larger need, and then getrs gets nil and allocates.
func solveRun[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], lo, hi int, ws []T) error {
	if lo > 0 || hi < a.Count {
		var err error
		if a, err = a.Sub(lo, hi); err != nil {
			return err
		}
		if ipiv, err = ipiv.Sub(lo, hi); err != nil {
			return err
		}
		if b, err = b.Sub(lo, hi); err != nil {
			return err
		}
	}
	var wsR []T
	if ws != nil {
		need, err := getrs.BufferSize(ctx, batchlas.NoTrans, a, ipiv, b)
		if err != nil {
			return err
		}
		if need <= len(ws) {
			wsR = ws[:need]
		}
	}
	return getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, b, wsR)
}
