package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/syev"
)

// Eigh returns the eigenvalues and eigenvectors of every symmetric matrix
// of a (count n x n), A_i = V_i*diag(w_i)*V_i^T: w.At(i, j) is the j-th
// smallest eigenvalue of A_i (ascending, w.Len = n) and column j of
// matrix i of v its unit eigenvector. It is numpy.linalg.eigh(a): only the
// lower triangle of a is read (the diagonal included).
//
// It runs syev.Syev (WithVectors, lower) on a copy of a, which is not
// modified and may be a view or a broadcast. Each eigenvector has its
// entry of largest magnitude positive (syev's sign convention, the same
// whichever kernel runs); numpy leaves the sign to LAPACK, so a vector
// may be the negative of numpy's.
//
// A matrix that fails (a NaN or an infinity in its lower triangle, or no
// convergence) does not stop the batch: the call returns w and v together
// with syev's *batchlas.NumericalError listing those matrices with
// syev's info (n+1 for NaN or infinity; see package syev). Their w_i and
// V_i are NaN; every other matrix is computed. A bad argument is a
// *batchlas.ArgError from "linalg.Eigh".
func Eigh[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (w batchlas.Vectors[T], v batchlas.Batch[T], err error) {
	const op = "linalg.Eigh"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, err
	}
	v, err = own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, err
	}
	w = batchlas.NewVectors[T](a.Rows, a.Count) // no larger than v
	err = syev.Syev(ctx, syev.WithVectors, batchlas.Lower, v, w, nil)
	ok, failed, from := results(err, a.Count)
	if !ok {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, err
	}
	spoil(v, failed, from)
	spoilVectors(w, failed, from)
	return w, v, err
}

// Eigvalsh returns the eigenvalues of every symmetric matrix of a (count
// n x n), in ascending order: w.At(i, j) is the j-th smallest eigenvalue
// of A_i (w.Len = n). It is numpy.linalg.eigvalsh(a): only the lower
// triangle of a is read (the diagonal included).
//
// It runs syev.Syev (ValuesOnly, lower) on a itself, which syev only
// reads: a is not modified and not copied, and may be a view or a
// broadcast.
//
// A matrix that fails (a NaN or an infinity in its lower triangle, or no
// convergence) does not stop the batch: the call returns w together with
// syev's *batchlas.NumericalError listing those matrices with syev's info
// (n+1 for NaN or infinity; see package syev). Their w_i are NaN; every
// other matrix's are computed. A bad argument is a *batchlas.ArgError
// from "linalg.Eigvalsh".
func Eigvalsh[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Vectors[T], error) {
	const op = "linalg.Eigvalsh"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Vectors[T]{}, err
	}
	w, err := allocVectors[T](op, "a", a.Rows, a.Count)
	if err != nil {
		return batchlas.Vectors[T]{}, err
	}
	err = syev.Syev(ctx, syev.ValuesOnly, batchlas.Lower, a, w, nil)
	ok, failed, from := results(err, a.Count)
	if !ok {
		return batchlas.Vectors[T]{}, err
	}
	spoilVectors(w, failed, from)
	return w, err
}
