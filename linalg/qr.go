package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/geqrf"
	"github.com/batchlas-go/batchlas/ops/orgqr"
)

// QR returns the reduced QR factorisation A_i = Q_i*R_i of every matrix of
// the batch: a is count m x n matrices, q is m x k with orthonormal
// columns and r is k x n upper triangular (upper trapezoidal when n > m),
// k = min(m, n). It is numpy.linalg.qr(a) (mode 'reduced') on a stack.
// The signs are LAPACK's (and numpy's): R's diagonal may be negative.
//
// It runs geqrf.Geqrf on a copy of a, which is not modified and may be a
// view or a broadcast (the copy is q itself when m >= n), then
// orgqr.Orgqr on the first k columns of the factor. NaN or Inf in A_i gives NaN or Inf in its Q_i and R_i, with no
// error. A bad argument is a *batchlas.ArgError from "linalg.QR"; q and r
// are then zero Batches. An interrupted call returns q and r with the
// op's *batchlas.InterruptedError: the matrices it completed hold their
// factors, every later one is NaN.
func QR[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (q, r batchlas.Batch[T], err error) {
	const op = "linalg.QR"
	if err := checkBatch(op, "a", a); err != nil {
		return q, r, err
	}
	m, n := a.Rows, a.Cols
	k := min(m, n)
	if q, err = alloc[T](op, "a", m, k, a.Count); err != nil {
		return batchlas.Batch[T]{}, r, err
	}
	if r, err = alloc[T](op, "a", k, n, a.Count); err != nil {
		return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	if a.Count == 0 || k == 0 {
		return q, r, nil
	}
	tau, err := allocVectors[T](op, "a", k, a.Count)
	if err != nil {
		return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	// The factor is computed in q itself when it has a's shape (m >= n),
	// else in a copy of a whose first m columns then go to q.
	f := q
	if m < n {
		if f, err = own(ctx, op, "a", a); err != nil {
			return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
		}
	} else {
		copyMatrices(ctx, q, a)
	}
	ferr := geqrf.Geqrf(ctx, f, tau, nil)
	ok, _, done := results(ferr, a.Count)
	if !ok {
		return batchlas.Batch[T]{}, batchlas.Batch[T]{}, ferr
	}
	// R is the factor's upper triangle; Q's columns start as the
	// factor's (the reflectors below the diagonal, orgqr overwrites the
	// rest).
	_ = parallel.For(uncancelled(ctx), done, float64(m*n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			for c := range n {
				src := f.Data[i*f.Stride+c*f.LD:]
				if m < n && c < k {
					copy(q.Data[i*q.Stride+c*q.LD:i*q.Stride+c*q.LD+m], src[:m])
				}
				copy(r.Data[i*r.Stride+c*r.LD:i*r.Stride+c*r.LD+min(c+1, k)], src[:min(c+1, k)])
			}
		}
	})
	spoil(r, nil, done)
	spoil(q, nil, done)
	if ferr != nil {
		// geqrf was interrupted: Q is formed for the matrices it completed,
		// whatever ctx says now, so that its report holds for q and r.
		qd, td := q, tau
		qd.Count, td.Count = done, done
		_ = orgqr.Orgqr(uncancelled(ctx), qd, td, nil)
		return q, r, ferr
	}
	err = orgqr.Orgqr(ctx, q, tau, nil)
	ok, _, done = results(err, a.Count)
	if !ok {
		return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
	}
	spoil(q, nil, done)
	spoil(r, nil, done)
	return q, r, err
}
