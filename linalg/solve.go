package linalg

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gesv"
	"github.com/batchlas-go/batchlas/ops/matinv"
	"github.com/batchlas-go/batchlas/ops/posv"
)

// Solve returns X with A_i*X_i = B_i for every matrix of the batch: a is
// count n x n general matrices, b count n x nrhs right-hand sides (any
// nrhs, 0 included), x is n x nrhs like b. It is numpy.linalg.solve(a, b)
// for b of shape (count, n, nrhs).
//
// It runs gesv.Gesv (LU with partial pivoting) on copies of a and b;
// neither is modified, and either may be a view or a broadcast.
//
// A singular matrix (a zero or NaN pivot) does not stop the batch: the
// call returns x together with gesv's *batchlas.NumericalError, whose
// Index lists the singular matrices and Info getrf's info (the first
// zero pivot, counted from 1). Every other X_i is solved; a singular
// matrix's X_i is NaN. With batchlas.WithConditionCheck in ctx, a matrix
// whose estimated reciprocal condition number is below the threshold is
// listed too, with Info n+1, and its X_i is solved all the same, as
// LAPACK's xGESVX does. A bad argument is a *batchlas.ArgError from
// "linalg.Solve" and x is the zero Batch.
func Solve[T batchlas.Float](ctx context.Context, a, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.Solve"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := checkRHS(op, "a", a, b); err != nil {
		return batchlas.Batch[T]{}, err
	}
	return solveGeneral(ctx, op, a, b)
}

// Inv returns the inverse of every matrix of a (count n x n). It is
// numpy.linalg.inv(a).
//
// It runs matinv.Matinv (LU with partial pivoting, then the inverse from
// it, out of place) into new storage; a is not modified and may be a view
// or a broadcast. Prefer Solve to multiplying by an inverse.
//
// A singular matrix (a zero or NaN pivot) does not stop the batch: the
// call returns the inverses together with matinv's
// *batchlas.NumericalError, whose Index lists the singular matrices and
// Info getrf's info (the first zero pivot, counted from 1); their
// inverses are NaN, every other one is computed. With
// batchlas.WithConditionCheck in ctx, a matrix whose reciprocal condition
// number (exact, from the inverse) is below the threshold is listed too,
// with Info n+1, and its inverse kept. An interrupted call returns the
// inverses with matinv's *batchlas.InterruptedError: the matrices it
// completed hold their inverses, every later one is NaN. A bad argument
// is a *batchlas.ArgError from "linalg.Inv".
func Inv[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.Inv"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := alloc[T](op, "a", a.Rows, a.Cols, a.Count)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = matinv.Matinv(ctx, a, x, nil)
	ok, _, from := results(err, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	// matinv has set the singular ones' inverses to NaN already.
	spoil(x, nil, from)
	return x, err
}

// solveGeneral runs gesv on a copy of a and, as the right-hand sides, a
// copy of b.
func solveGeneral[T batchlas.Float](ctx context.Context, op string, a, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	lu, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := own(ctx, op, "b", b)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	ipiv, err := allocVectors[int32](op, "a", a.Rows, a.Count)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = gesv.Gesv(ctx, lu, ipiv, x, nil)
	ok, failed, from := results(err, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	spoil(x, notSolved(err, failed, a.Rows), from)
	return x, err
}

// SolveSPD returns X with A_i*X_i = B_i for every matrix of the batch,
// where each A_i is symmetric positive definite: a is count n x n, of
// which only the lower triangle is read (the diagonal included), b count
// n x nrhs, x n x nrhs like b. numpy has no such function; it is
// scipy.linalg.solve(a, b, assume_a='pos'), or numpy.linalg.solve(a, b)
// at about twice the cost.
//
// It runs posv.Posv (Cholesky factor and solve, lower triangle) on copies
// of a and b; neither is modified, and either may be a view or a
// broadcast. To keep the factor, call Cholesky and CholeskySolve instead.
//
// A matrix that is not positive definite (NaN included) does not stop the
// batch: the call returns x together with posv's
// *batchlas.NumericalError, whose Index lists those matrices and Info the
// order of the leading minor that is not positive definite (counted from
// 1). Their X_i are NaN, every other X_i is solved. With
// batchlas.WithConditionCheck in ctx, an ill-conditioned matrix is listed
// with Info n+1 and solved all the same. A bad argument is a
// *batchlas.ArgError from "linalg.SolveSPD".
func SolveSPD[T batchlas.Float](ctx context.Context, a, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.SolveSPD"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := checkRHS(op, "a", a, b); err != nil {
		return batchlas.Batch[T]{}, err
	}
	f, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := own(ctx, op, "b", b)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = posv.Posv(ctx, batchlas.Lower, f, x, nil)
	ok, failed, from := results(err, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	spoil(x, notSolved(err, failed, a.Rows), from)
	return x, err
}

// notSolved drops from failed the matrices a condition check
// (batchlas.WithConditionCheck) reported as ill-conditioned, info n+1:
// gesv and posv solved them, so their X_i is a result, not NaN.
func notSolved(err error, failed []int, n int) []int {
	var ne *batchlas.NumericalError
	if !errors.As(err, &ne) {
		return failed
	}
	var out []int
	for j, i := range ne.Index {
		if ne.Info[j] != n+1 {
			out = append(out, i)
		}
	}
	return out
}
