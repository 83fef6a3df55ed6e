package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/poinv"
)

// InvSPD returns the inverse of every symmetric positive definite matrix
// of a (count n x n), the whole symmetric matrix: only the lower triangle
// of a is read (the diagonal included). numpy has no such function
// (numpy.linalg.inv(a) gives the same matrices at about twice the
// flops); it is LAPACK's xPOTRF then xPOTRI with the triangle mirrored.
//
// It runs poinv.Poinv (lower) into new storage; a is not modified and may
// be a view or a broadcast. Prefer SolveSPD, or Cholesky and
// CholeskySolve, to multiplying by an inverse.
//
// A matrix that is not positive definite (NaN included) does not stop
// the batch: the call returns the inverses together with poinv's
// *batchlas.NumericalError, whose Index lists those matrices and Info the
// order of the leading minor that is not positive definite (counted from
// 1). Their inverses are NaN, every other one is computed. With
// batchlas.WithConditionCheck in ctx, a matrix whose reciprocal condition
// number (exact, from the inverse) is below the threshold is listed too,
// with Info n+1, and its inverse kept. A bad argument is a
// *batchlas.ArgError from "linalg.InvSPD". An interrupted call returns the
// inverses with poinv's *batchlas.InterruptedError: the matrices it
// completed hold their inverses (its Failed lists the failures among
// them), every later one is NaN.
func InvSPD[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.InvSPD"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := alloc[T](op, "a", a.Rows, a.Cols, a.Count)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = poinv.Poinv(ctx, batchlas.Lower, a, x, nil)
	ok, _, from := results(err, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	// poinv has set the failed ones' inverses to NaN already.
	spoil(x, nil, from)
	return x, err
}
