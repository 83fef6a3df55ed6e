package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gesvd"
)

// SVD returns the reduced singular value decomposition of every m x n
// matrix of a, A_i = U_i*diag(s_i)*Vt_i: s.At(i, j) is the j-th largest
// singular value of A_i (descending, s.Len = min(m, n)), u holds the m x
// min(m, n) left singular vectors (column j that of s_i[j]) and vt the
// min(m, n) x n right ones as rows. It is numpy.linalg.svd(a,
// full_matrices=False).
//
// It runs gesvd.Gesvd with ThinVectors for both sides on a, which gesvd
// only reads: a is not modified and not copied, and may be a view or a
// broadcast. Signs follow gesvd's convention, the same whichever kernel
// runs: each column of U has its entry of largest magnitude positive, and
// the matching row of Vt goes with it; numpy leaves them to LAPACK, so a
// pair of vectors may be the negative of numpy's.
//
// A matrix that fails (a NaN or an infinity in it, or no convergence)
// does not stop the batch: the call returns s, u and vt together with
// gesvd's *batchlas.NumericalError listing those matrices with gesvd's
// info (min(m, n)+1 for NaN or infinity; see package gesvd). Their s_i,
// U_i and Vt_i are NaN; every other matrix is computed. A bad argument is
// a *batchlas.ArgError from "linalg.SVD".
func SVD[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (s batchlas.Vectors[T], u, vt batchlas.Batch[T], err error) {
	const op = "linalg.SVD"
	if err := checkBatch(op, "a", a); err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	k := min(a.Rows, a.Cols)
	if s, err = allocVectors[T](op, "a", k, a.Count); err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	if u, err = alloc[T](op, "a", a.Rows, k, a.Count); err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	if vt, err = alloc[T](op, "a", k, a.Cols, a.Count); err != nil {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	err = gesvd.Gesvd(ctx, gesvd.ThinVectors, gesvd.ThinVectors, a, s, u, vt, nil)
	ok, failed, from := results(err, a.Count)
	if !ok {
		return batchlas.Vectors[T]{}, batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	spoilVectors(s, failed, from)
	spoil(u, failed, from)
	spoil(vt, failed, from)
	return s, u, vt, err
}

// SVDValues returns the singular values of every m x n matrix of a, in
// descending order: s.At(i, j) is the j-th largest singular value of A_i
// (s.Len = min(m, n)). It is numpy.linalg.svd(a, compute_uv=False).
//
// It runs gesvd.Gesvd with NoVectors on a, which gesvd only reads: a is
// not modified and not copied, and may be a view or a broadcast.
//
// A matrix that fails (a NaN or an infinity in it, or no convergence)
// does not stop the batch: the call returns s together with gesvd's
// *batchlas.NumericalError listing those matrices (see SVD); their s_i are
// NaN. A bad argument is a *batchlas.ArgError from "linalg.SVDValues".
func SVDValues[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Vectors[T], error) {
	const op = "linalg.SVDValues"
	if err := checkBatch(op, "a", a); err != nil {
		return batchlas.Vectors[T]{}, err
	}
	s, err := allocVectors[T](op, "a", min(a.Rows, a.Cols), a.Count)
	if err != nil {
		return batchlas.Vectors[T]{}, err
	}
	err = gesvd.Gesvd(ctx, gesvd.NoVectors, gesvd.NoVectors, a, s, batchlas.Batch[T]{}, batchlas.Batch[T]{}, nil)
	ok, failed, from := results(err, a.Count)
	if !ok {
		return batchlas.Vectors[T]{}, err
	}
	spoilVectors(s, failed, from)
	return s, err
}
