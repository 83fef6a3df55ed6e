package linalg

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/ops/gels"
)

// Lstsq returns X minimising ||A_i*X_i - B_i|| (2-norm, each column of B_i
// on its own) for every matrix of the batch: a is count m x n matrices
// with m >= n, b count m x nrhs right-hand sides, x is n x nrhs. It is
// numpy.linalg.lstsq(a, b)[0] for a of full column rank, stacked (numpy's
// lstsq takes one matrix at a time).
//
// It runs gels.Gels (Householder QR) on copies of a and b; neither is
// modified, and either may be a view or a broadcast. A wide a (m < n, the
// minimum-norm problem) is an *batchlas.ArgError for now.
//
// A matrix whose R has a zero (or NaN) diagonal entry, exactly
// rank-deficient, does not stop the batch: the call returns x together
// with gels's *batchlas.NumericalError, whose Index lists those matrices
// and Info the first such column, counted from 1; their X_i are NaN, every
// other one is solved. numpy would return a minimum-norm solution there
// (it uses the SVD); to get one, drop the dependent columns. A bad
// argument is a *batchlas.ArgError from "linalg.Lstsq".
func Lstsq[T batchlas.Float](ctx context.Context, a, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.Lstsq"
	if err := checkBatch(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := checkBatch(op, "b", b); err != nil {
		return batchlas.Batch[T]{}, err
	}
	switch {
	case a.Rows < a.Cols:
		return batchlas.Batch[T]{}, opkit.Argf(op, "a", "a is %dx%d: Lstsq solves m >= n (rows >= cols) for now; an underdetermined system needs the minimum-norm solution, not yet supported", a.Rows, a.Cols)
	case b.Rows != a.Rows:
		return batchlas.Batch[T]{}, opkit.Argf(op, "b", "b has %d rows but a is %dx%d: want b of %d x nrhs, one row per row of a", b.Rows, a.Rows, a.Cols, a.Rows)
	case b.Count != a.Count:
		return batchlas.Batch[T]{}, opkit.Argf(op, "b", "b.Count %d != a.Count %d: want one right-hand side matrix per matrix of a (batchlas.Broadcast repeats one)", b.Count, a.Count)
	}
	f, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	work, err := own(ctx, op, "b", b)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	err = gels.Gels(ctx, f, work, nil)
	ok, failed, from := results(err, a.Count)
	if !ok {
		return batchlas.Batch[T]{}, err
	}
	// X_i is the first n rows of the solved B_i: a view, copied out tight.
	solved := work
	solved.Rows = a.Cols
	x, cerr := own(ctx, op, "b", solved)
	if cerr != nil {
		return batchlas.Batch[T]{}, cerr
	}
	spoil(x, failed, from)
	return x, err
}
