package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potrs"
)

// Cholesky returns the lower Cholesky factor L_i of every symmetric
// positive definite matrix of a (count n x n), A_i = L_i*L_i^T, with the
// strictly upper triangle of l zeroed. It is numpy.linalg.cholesky(a):
// only the lower triangle of a is read (the diagonal included).
//
// It runs potrf.Potrf (lower) on a copy of a, which is not modified and
// may be a view or a broadcast. CholeskySolve solves with the factor;
// log det(A_i) is 2*sum_j log(L_i(j, j)) (posv.LogDet computes it from l).
//
// A matrix that is not positive definite (NaN included) does not stop
// the batch: the call returns l together with potrf's
// *batchlas.NumericalError, whose Index lists those matrices and Info the
// order of the leading minor that is not positive definite (counted from
// 1). Their L_i are NaN; every other L_i is computed. A bad argument is a
// *batchlas.ArgError from "linalg.Cholesky".
func Cholesky[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.Cholesky"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	l, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = potrf.Potrf(ctx, batchlas.Lower, l, nil)
	ok, failed, from := results(err, l.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	n := l.Rows
	for i := range l.Count {
		for c := 1; c < n; c++ {
			o := i*l.Stride + c*l.LD
			clear(l.Data[o : o+c])
		}
	}
	spoil(l, failed, from)
	return l, err
}

// CholeskySolve returns X with A_i*X_i = B_i for every matrix of the
// batch, given the lower Cholesky factors L_i of the A_i (A_i = L_i*L_i^T,
// as Cholesky returns them): l is count n x n, of which only the lower
// triangle is read, b count n x nrhs, x n x nrhs like b. numpy has no
// such function; it is scipy.linalg.cho_solve((l, True), b).
//
// It runs potrs.Potrs (lower) with l as it is, which potrs only reads, and
// a copy of b. Neither is modified; l may be a broadcast (one factor for
// the whole batch of right-hand sides), b a view or a broadcast.
//
// As in LAPACK, there is no failure report: a zero on a factor's diagonal
// gives Inf or NaN in X_i (Cholesky has already reported the matrix). A
// bad argument is a *batchlas.ArgError from "linalg.CholeskySolve".
func CholeskySolve[T batchlas.Float](ctx context.Context, l, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.CholeskySolve"
	if err := checkSquare(op, "l", l); err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := checkRHS(op, "l", l, b); err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := own(ctx, op, "b", b)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = potrs.Potrs(ctx, batchlas.Lower, l, x, nil)
	ok, failed, from := results(err, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	spoil(x, failed, from)
	return x, err
}
