package poinv

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potri"
)

// The chain family: A copied into X, the potrf op and then the potri op
// on X's uplo triangle, both through their public entry points so each
// chooses its own kernel for the batch and is traced beneath poinv, then
// the triangle copied onto the other one. A matrix potrf finds not
// positive definite is set to NaN here (potri's report on it, if any, is
// dropped: potrf's info is the one that counts).

// launchChain inverts every matrix, writing each one's info. ws is nil
// (potrf allocates) or holds potrf's BufferSize elements.
func launchChain[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, x batchlas.Batch[T], ws []T, info []int32) error {
	count := a.Count
	if err := invkit.Copy(ctx, x, a); err != nil {
		var ie *batchlas.InterruptedError
		if errors.As(err, &ie) {
			// No inverse is complete; the copy reached some X_i.
			return &batchlas.InterruptedError{Count: count, Touched: max(ie.Touched, ie.Completed), Err: ie.Err}
		}
		return err
	}
	if err := potrf.Potrf(ctx, uplo, x, ws); err != nil {
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
			// No inverse is complete before potri; the copy wrote every X_i.
			return &batchlas.InterruptedError{Count: count, Touched: count, Err: ie.Err}
		default:
			return err
		}
	}
	err := potri.Potri(ctx, uplo, x)
	done := count
	if err != nil {
		var ne *batchlas.NumericalError
		var ie *batchlas.InterruptedError
		switch {
		case errors.As(err, &ne):
			// Only matrices potrf reported can fail here.
			err = nil
		case errors.As(err, &ie):
			done = ie.Completed
			err = &batchlas.InterruptedError{Count: count, Completed: done, Touched: count, Err: ie.Err}
		default:
			return err
		}
	}
	xd := x
	xd.Count = done
	// The mirror of the inverted matrices runs to its end: potri's
	// report counts them as complete. A ctx done by now stops it, so it
	// is run again whole without the cancellation (a mirror is
	// idempotent; WithoutCancel allocates, so only then).
	if mirrorAll(ctx, uplo == batchlas.Lower, xd) != nil {
		_ = mirrorAll(context.WithoutCancel(ctx), uplo == batchlas.Lower, xd)
	}
	for i := range done {
		if info[i] != 0 {
			invkit.SetNaN(x, i)
		}
	}
	return err
}

// mirrorAll mirrors the uplo triangle of every matrix of x onto the
// other one, on the workers.
func mirrorAll[T batchlas.Float](ctx context.Context, lower bool, x batchlas.Batch[T]) error {
	j := parallel.Get[mirrorJob[T]]()
	defer parallel.Put(j)
	j.lower, j.x = lower, x
	return parallel.Run(ctx, x.Count, float64(x.Rows*x.Rows), j)
}

// mirrorJob is mirrorAll's loop body, from parallel's free list (a
// closure would escape to the heap on every call).
type mirrorJob[T batchlas.Float] struct {
	lower bool
	x     batchlas.Batch[T]
}

// Chunk mirrors matrices [lo, hi).
func (j *mirrorJob[T]) Chunk(_, lo, hi int) {
	x, n := j.x, j.x.Rows
	for i := lo; i < hi; i++ {
		mirrorMatrix(x.Data[i*x.Stride:i*x.Stride+(n-1)*x.LD+n], n, x.LD, j.lower)
	}
}

// mirrorMatrix copies the lower (or upper) triangle of the n x n matrix m
// (leading dimension ld) onto the other triangle, column by column of the
// destination: a column's rows are contiguous there, its sources a row
// apart.
func mirrorMatrix[T batchlas.Float](m []T, n, ld int, lower bool) {
	for c := 1; c < n; c++ {
		if lower {
			// Column c above the diagonal, from row c left of it.
			dst := m[c*ld : c*ld+c]
			src := m[c:]
			for r := range dst {
				dst[r] = src[r*ld]
			}
			continue
		}
		// Row c left of the diagonal, from column c above it.
		src := m[c*ld : c*ld+c]
		dst := m[c:]
		for r, v := range src {
			dst[r*ld] = v
		}
	}
}
