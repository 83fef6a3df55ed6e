package matinv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
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
// (the ops allocate) or holds chainBufferSize elements.
func launchChain[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T, info []int32) error {
	n, count := a.Rows, a.Count
	if err := copyInto(ctx, x, a); err != nil {
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
	var wsF, wsI []T
	if ws != nil {
		needF, err := getrf.BufferSize(ctx, x, ipiv)
		if err != nil {
			return err
		}
		needI, err := getri.BufferSize(ctx, x, ipiv)
		if err != nil {
			return err
		}
		wsF, wsI = ws[:needF], ws[:needI]
	}
	if err := getrf.Getrf(ctx, x, ipiv, wsF); err != nil {
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
	err = getri.Getri(ctx, x, ipiv, wsI)
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
			setNaN(x, i)
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

// copyInto copies every A_i into X_i on the workers, a part of the
// matrices each.
func copyInto[T batchlas.Float](ctx context.Context, x, a batchlas.Batch[T]) error {
	j := parallel.Get[copyJob[T]]()
	defer parallel.Put(j)
	j.x, j.a = x, a
	return parallel.Run(ctx, a.Count, float64(a.Rows*a.Rows), j)
}

// copyJob is copyInto's loop body, from parallel's free list (a closure
// would escape to the heap on every call).
type copyJob[T batchlas.Float] struct{ x, a batchlas.Batch[T] }

// Chunk copies matrices [lo, hi).
func (j *copyJob[T]) Chunk(_, lo, hi int) {
	x, a, n := j.x, j.a, j.a.Rows
	for i := lo; i < hi; i++ {
		for c := range n {
			copy(x.Data[i*x.Stride+c*x.LD:i*x.Stride+c*x.LD+n], a.Data[i*a.Stride+c*a.LD:i*a.Stride+c*a.LD+n])
		}
	}
}
