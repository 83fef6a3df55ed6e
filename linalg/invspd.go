package linalg

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potri"
)

// InvSPD returns the inverse of every symmetric positive definite matrix
// of a (count n x n), the whole symmetric matrix: only the lower triangle
// of a is read (the diagonal included). numpy has no such function
// (numpy.linalg.inv(a) gives the same matrices at about twice the
// flops); it is LAPACK's xPOTRF then xPOTRI with the triangle mirrored.
//
// It runs potrf.Potrf (lower) on a copy of a, which is not modified and
// may be a view or a broadcast, then potri.Potri (lower) on the factors,
// and copies the lower triangle of each inverse into its upper one.
// Prefer SolveSPD, or Cholesky and CholeskySolve, to multiplying by an
// inverse.
//
// A matrix that is not positive definite (NaN included) does not stop
// the batch: the call returns the inverses together with potrf's
// *batchlas.NumericalError, whose Index lists those matrices and Info the
// order of the leading minor that is not positive definite (counted from
// 1). Their inverses are NaN, every other one is computed. A bad argument
// is a *batchlas.ArgError from "linalg.InvSPD". An interrupted call
// returns the inverses with the *batchlas.InterruptedError of the op that
// was interrupted (Count the batch's): the matrices it completed hold
// their inverses (its Failed lists potrf's failures among them), every
// later one is NaN.
func InvSPD[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Batch[T], error) {
	const op = "linalg.InvSPD"
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, err
	}
	x, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	if x.Count == 0 || x.Rows == 0 {
		return x, nil
	}
	ferr := potrf.Potrf(ctx, batchlas.Lower, x, nil)
	ok, failed, done := results(ferr, x.Count)
	if !ok {
		return batchlas.Batch[T]{}, ferr
	}
	// The factored matrices are inverted whatever ctx says now when potrf
	// was interrupted, so that its report holds for the inverses.
	pctx := ctx
	if ferr != nil && done < x.Count {
		pctx = uncancelled(ctx)
	}
	xd := x
	xd.Count = done
	perr := potri.Potri(pctx, batchlas.Lower, xd)
	ok, pfailed, inverted := results(perr, done)
	if !ok {
		return batchlas.Batch[T]{}, perr
	}
	n := x.Rows
	_ = parallel.For(uncancelled(ctx), inverted, float64(n*n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := x.Data[i*x.Stride:]
			for c := 1; c < n; c++ {
				for r := range c {
					m[c*x.LD+r] = m[r*x.LD+c]
				}
			}
		}
	})
	spoil(x, append(failed, pfailed...), inverted)
	var ie *batchlas.InterruptedError
	if errors.As(perr, &ie) {
		// potri was interrupted (potrf was not): its report, over the
		// batch, with potrf's failures among the inverted matrices.
		out := *ie
		out.Count, out.Touched = x.Count, x.Count
		out.Failed = failuresBefore(ferr, inverted)
		return x, &out
	}
	return x, ferr
}

// failuresBefore is the part of err's *batchlas.NumericalError that lists
// matrices below end, or nil.
func failuresBefore(err error, end int) *batchlas.NumericalError {
	var ne *batchlas.NumericalError
	if !errors.As(err, &ne) {
		return nil
	}
	out := &batchlas.NumericalError{Op: ne.Op}
	for j, i := range ne.Index {
		if i < end {
			out.Index = append(out.Index, i)
			out.Info = append(out.Info, ne.Info[j])
		}
	}
	if len(out.Index) == 0 {
		return nil
	}
	return out
}
