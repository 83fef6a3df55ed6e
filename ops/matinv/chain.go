package matinv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getri"
)

// The chain family: A copied into X, then the getrf op and the getri op
// on X, both through their public entry points so each chooses its own
// kernel for the batch and is traced beneath matinv. The pivots live in a
// recycled buffer (pivotbuf.go), so a call with its workspace supplied
// allocates nothing once one exists. A matrix getrf finds singular is
// left alone by getri (the same rule: a zero or NaN on U's diagonal) and
// set to NaN here.

// launchChain inverts every matrix, writing each one's info. ws is nil
// (the ops allocate) or holds chainBufferSize elements, the larger of
// what getrf and getri need: each takes it whole, so their sizes are not
// asked again.
func launchChain[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T, info []int32) error {
	n, count := a.Rows, a.Count
	if err := invkit.Copy(ctx, x, a); err != nil {
		var ie *batchlas.InterruptedError
		if errors.As(err, &ie) {
			// No inverse is complete; the copy reached some X_i.
			return &batchlas.InterruptedError{Count: count, Touched: max(ie.Touched, ie.Completed), Err: ie.Err}
		}
		return err
	}
	pbuf := getPivots(n * count)
	defer putPivots(pbuf)
	ipiv, err := batchlas.WrapVectors(pbuf, n, count)
	if err != nil {
		return err
	}
	if err := getrf.Getrf(ctx, x, ipiv, ws); err != nil {
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
			// No inverse is complete before getri; the copy wrote every X_i.
			return &batchlas.InterruptedError{Count: count, Touched: count, Err: ie.Err}
		default:
			return err
		}
	}
	err = getri.Getri(ctx, x, ipiv, ws)
	done := count
	if err != nil {
		var ne *batchlas.NumericalError
		var ie *batchlas.InterruptedError
		switch {
		case errors.As(err, &ne):
			// The same matrices getrf reported, by the same rule.
			err = nil
		case errors.As(err, &ie):
			done = ie.Completed
			err = &batchlas.InterruptedError{Count: count, Completed: done, Touched: count, Err: ie.Err}
		}
	}
	for i := range done {
		if info[i] != 0 {
			invkit.SetNaN(x, i)
		}
	}
	return err
}

// chainBufferSize is the larger of getrf's and getri's workspace for x
// under ctx: they run one after the other in the same elements.
func chainBufferSize[T batchlas.Float](ctx context.Context, x batchlas.Batch[T]) (int, error) {
	// The sizes depend on the pivots' shape only; the buffer is a
	// recycled one, so sizing inside a call allocates nothing.
	pbuf := getPivots(x.Rows * x.Count)
	defer putPivots(pbuf)
	ipiv, err := batchlas.WrapVectors(pbuf, x.Rows, x.Count)
	if err != nil {
		return 0, err
	}
	needF, err := getrf.BufferSize(ctx, x, ipiv)
	if err != nil {
		return 0, err
	}
	needI, err := getri.BufferSize(ctx, x, ipiv)
	if err != nil {
		return 0, err
	}
	return max(needF, needI), nil
}
