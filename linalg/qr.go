package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
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
// a is not modified and may be a view or a broadcast. For m >= n each
// matrix is copied into q, factored there by geqrf's kernel, its R copied
// out and its Q formed by orgqr's, a few matrices at a time while they
// are in the caches (geqrf.NewPlan, orgqr.NewPlan: each op's decision is
// the one its own call on the batch would make, traced as such). For m <
// n geqrf.Geqrf runs on a copy of a, then orgqr.Orgqr on the first m
// columns of the factor. NaN or Inf in A_i gives NaN or Inf in its Q_i
// and R_i, with no error. A bad argument is a *batchlas.ArgError from
// "linalg.QR" or the op that found it; q and r are then zero Batches. An
// interrupted call returns q and r with a *batchlas.InterruptedError:
// the matrices it completed hold their factors, every later one is NaN.
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
	if m >= n {
		err = qrInCache(ctx, a, q, r, tau)
		if ok, _, _ := results(err, a.Count); !ok {
			return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
		}
		return q, r, err
	}
	// Wide: the factor is computed in a copy of a whose first m columns
	// then go to q.
	f, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, batchlas.Batch[T]{}, err
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
				if c < k {
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

// qrInCache is QR for m >= n a range of matrices at a time: each range is
// copied into q, factored by geqrf's plan, its R copied out and its Q
// formed by orgqr's plan, one worker's range at a time while its matrices
// are in that worker's caches, where geqrf and orgqr run one after the
// other made four passes over the whole batch in memory (float64 n = 128
// batch = 256 on the Zen 5 guest: 34 ms in turn, 25 ms in cache). Each
// op's decision is the one its own call would make for the batch, traced
// and counted as such. An interrupted call's completed matrices are a
// prefix of whole ranges; every later one is NaN in q and r.
func qrInCache[T batchlas.Float](ctx context.Context, a, q, r batchlas.Batch[T], tau batchlas.Vectors[T]) error {
	gp, err := geqrf.NewPlan(ctx, q, tau)
	if err != nil {
		return err
	}
	op, err := orgqr.NewPlan(ctx, q, tau)
	if err != nil {
		return err
	}
	m, n := a.Rows, a.Cols
	// A range is a lanes group when either kernel runs across matrices
	// (both groups are the same size then), else one matrix.
	g := max(gp.Group(), op.Group())
	ranges := (a.Count + g - 1) / g
	fm, fn := float64(m), float64(n)
	work := float64(g) * (4*fm*fn*fn - 4*fn*fn*fn/3)
	size := m * n // q and r are tight: matrix i of q at i*size
	err = parallel.ForScratch(ctx, ranges, work, min(gp.Workers(), op.Workers()), func(w, lo, hi int) {
		for c := lo; c < hi; c++ {
			i0, i1 := c*g, min((c+1)*g, a.Count)
			copyRange(q, a, i0, i1)
			gp.Run(w, i0, i1)
			for i := i0; i < i1; i++ {
				upperTriangle(r.Data[i*n*n:(i+1)*n*n], q.Data[i*size:(i+1)*size], m, n)
			}
			op.Run(w, i0, i1)
		}
	})
	if err == nil {
		return nil
	}
	_, _, done := results(err, ranges)
	done = min(done*g, a.Count)
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Completed, ie.Touched, ie.Count = done, done, a.Count
	}
	spoil(q, nil, done)
	spoil(r, nil, done)
	return opkit.Interrupted("linalg.QR", err)
}

// upperTriangle copies the upper triangle of the m x n (m >= n) column-
// major f (leading dimension m) into the n x n r, leaving r's lower part.
func upperTriangle[T batchlas.Float](r, f []T, m, n int) {
	for col := range n {
		dst, src := r[col*n:col*n+col+1], f[col*m:col*m+col+1]
		if col < 8 {
			// A few elements: a loop, not a call of memmove.
			for x := range dst {
				dst[x] = src[x]
			}
			continue
		}
		copy(dst, src)
	}
}
