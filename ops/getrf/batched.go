package getrf

import (
	"context"
	"errors"
	"github.com/batchlas-go/batchlas/internal/lu"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// batchedGetrf is right-looking blocked LU over the whole batch. At each
// step of nb columns it
//
//  1. factors the panel (the step's columns, from their diagonal down) of
//     every matrix and applies the panel's interchanges to the columns
//     left and right of it (batch-parallel, this package's getf2 and
//     laswp);
//  2. solves U12 = L11^-1 * A12 for every matrix with one call of the trsm
//     op (L11 unit lower);
//  3. updates the trailing matrix, A22 -= L21 * U12, with one call of the
//     gemm op.
//
// The nested calls go through those ops' public entry points with this
// call's context, so their decisions are traced and covered. Each gets the
// call's ws, which BufferSize sized for the largest of their BufferSizes
// (batchedNestedSize): with it supplied, the call allocates nothing. Every panel is factored after all updates
// of earlier steps reached it, so the pivots are those of getf2 on the
// whole matrix.
//
// An order up to nb is a single panel: the unblocked kernel's code (twin).
func batchedGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], nb int, ws []T, info []int32) error {
	n := a.Rows
	if n <= nb {
		return unblockedGetrf(ctx, a, ipiv, info)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.info, j.small = runBatchedPanel, a, ipiv, info, lu.SafeMin[T]()
	for k0 := 0; k0 < n; k0 += nb {
		kb := min(nb, n-k0)
		r0 := k0 + kb // first trailing row and column
		last := r0 == n
		// Panel work, weighed as getf2 on (n-k0) x kb.
		work := 2 * float64(n-k0) * float64(kb) * float64(kb)
		j.k0, j.r0, j.last = k0, r0, last
		err := parallel.Run(ctx, a.Count, work, j)
		if err != nil {
			var ie *batchlas.InterruptedError
			if errors.As(err, &ie) {
				switch {
				case k0 == 0:
					// The matrices past those the first step reached are
					// untouched.
					return interruptedBatch(err, a.Count, 0, ie.Touched)
				case last:
					// The last step completes the matrices it reached.
					return interruptedBatch(err, a.Count, ie.Completed, a.Count)
				}
			}
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
		if last {
			break
		}
		// U12 = L11^-1 * A12.
		l11, u12 := stepSolve(a, k0, kb)
		err = trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, 1, l11, u12, ws)
		if err != nil {
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
		// A22 -= L21 * U12.
		l21, u12, a22 := stepUpdate(a, k0, kb)
		err = gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, -1, l21, u12, 1, a22, ws)
		if err != nil {
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
	}
	return nil
}

// stepSolve is the trsm call of the step of kb columns from k0: L11 and
// the block U12 = L11^-1 * A12 overwrites.
func stepSolve[T batchlas.Float](a batchlas.Batch[T], k0, kb int) (l11, a12 batchlas.Batch[T]) {
	n, r0 := a.Rows, k0+kb
	return view(a, k0, k0, kb, kb), view(a, k0, r0, kb, n-r0)
}

// stepUpdate is the gemm call of the step: A22 -= L21 * U12.
func stepUpdate[T batchlas.Float](a batchlas.Batch[T], k0, kb int) (l21, u12, a22 batchlas.Batch[T]) {
	n, r0 := a.Rows, k0+kb
	return view(a, r0, k0, n-r0, kb), view(a, k0, r0, kb, n-r0), view(a, r0, r0, n-r0, n-r0)
}

// batchedNestedSize is the workspace of the batched kernel: the largest
// trsm.BufferSize or gemm.BufferSize of its nested calls, asked with the
// call's context on the same views, so that each sizes for the kernel it
// will choose.
func batchedNestedSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], nb int) (int, error) {
	n, most := a.Rows, 0
	for k0 := 0; k0+nb < n; k0 += nb {
		l11, u12 := stepSolve(a, k0, nb)
		need, err := trsm.BufferSize(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.Unit, l11, u12)
		if err != nil {
			return 0, err
		}
		most = max(most, need)
		l21, u12, a22 := stepUpdate(a, k0, nb)
		if need, err = gemm.BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, l21, u12, a22); err != nil {
			return 0, err
		}
		most = max(most, need)
	}
	return most, nil
}

// interruptedBatch turns an *InterruptedError from a step of the
// batch-wide path (from parallel.For or a nested trsm or gemm call, which
// report over their own view) into the report for the batch of count:
// [0, completed) complete, [touched, count) untouched. Any other error is
// returned as it is.
func interruptedBatch(err error, count, completed, touched int) error {
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	return &batchlas.InterruptedError{Count: count, Completed: completed, Touched: touched, Err: ie.Err}
}

// view is the rows x cols sub-matrix at (r0, c0) of every matrix of a, as a
// batch with a's leading dimension and stride. It edits a copy of a rather
// than building a literal, which would drop what else a batch carries.
func view[T batchlas.Float](a batchlas.Batch[T], r0, c0, rows, cols int) batchlas.Batch[T] {
	a.Data = a.Data[c0*a.LD+r0:]
	a.Rows, a.Cols = rows, cols
	return a
}
