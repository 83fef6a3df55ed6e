package linalg

import (
	"context"
	"errors"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrf"
)

// LU returns the LU factorisation with partial pivoting of every matrix of
// a (count n x n), A_i = P_i*L_i*U_i, in LAPACK's compact form: lu holds
// U_i on and above the diagonal and L_i below it (L_i's unit diagonal is
// not stored), pivots the row interchanges. It is
// scipy.linalg.lu_factor(a) (numpy has none), with the same pivot
// convention.
//
// Pivots are 0-based: for j = 0 .. n-1 in order, row j was interchanged
// with row pivots.At(i, j) >= j. The info of a singular matrix in the
// *batchlas.NumericalError is LAPACK's, 1-based: info k means U_i(k-1,
// k-1) is zero (or NaN). lu and pivots are what getrs.Getrs takes to
// solve with the factor (batchlas.NoTrans), and Det and Slogdet read the
// same factor.
//
// It runs getrf.Getrf on a copy of a, which is not modified and may be a
// view or a broadcast.
//
// A singular matrix is factored to the end, as LAPACK does: the call
// returns lu and pivots together with getrf's *batchlas.NumericalError
// listing the singular matrices, and their factors, unlike the other
// functions' failed outputs, are complete and valid (only solving with
// them fails), as scipy's lu_factor returns them with a warning. After a
// *batchlas.InterruptedError the factors from its Completed on are NaN
// and their pivots are not results. A bad argument is a
// *batchlas.ArgError from "linalg.LU".
func LU[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Batch[T], batchlas.Vectors[int32], error) {
	const op = "linalg.LU"
	lu, ipiv, err := factor(ctx, op, a)
	// The factor of a singular matrix is a result: only an interruption
	// spoils factors.
	var ie *batchlas.InterruptedError
	if errors.As(err, &ie) {
		spoil(lu, nil, min(ie.Completed, lu.Count))
	}
	return lu, ipiv, err
}

// factor validates a, runs getrf on a copy of it and returns the factor
// and the pivots with getrf's error; after an error that comes with no
// results, the zero values.
func factor[T batchlas.Float](ctx context.Context, op string, a batchlas.Batch[T]) (batchlas.Batch[T], batchlas.Vectors[int32], error) {
	if err := checkSquare(op, "a", a); err != nil {
		return batchlas.Batch[T]{}, batchlas.Vectors[int32]{}, err
	}
	lu, err := own(ctx, op, "a", a)
	if err != nil {
		return batchlas.Batch[T]{}, batchlas.Vectors[int32]{}, err
	}
	ipiv, err := allocVectors[int32](op, "a", a.Rows, a.Count)
	if err != nil {
		return batchlas.Batch[T]{}, batchlas.Vectors[int32]{}, err
	}
	err = getrf.Getrf(ctx, lu, ipiv, nil)
	if ok, _, _ := results(err, lu.Count); !ok {
		return batchlas.Batch[T]{}, batchlas.Vectors[int32]{}, err
	}
	return lu, ipiv, err
}

// Det returns the determinant of every matrix of a (count n x n), one
// value per matrix in a batchlas.Vectors of length 1 (d.Data[i], or
// d.At(i, 0), is det(A_i)). It is numpy.linalg.det(a).
//
// It factors a copy of a with getrf.Getrf (a is not modified, and may be
// a view or a broadcast) and takes the product of U_i's diagonal, negated
// for an odd number of row interchanges. The product is formed as a
// fraction and a power of two, so it overflows or underflows only when
// the determinant itself is out of T's range (then it is +-Inf or 0, as
// in numpy). For large matrices, or when only the magnitude's logarithm
// is needed, use Slogdet.
//
// As in numpy, a singular matrix is no error: its determinant is 0 (a
// zero on U's diagonal; a matrix that is singular only up to rounding
// gets a tiny determinant, as in numpy). A NaN on U's diagonal (a NaN in
// A) gives NaN. The determinant of a 0x0 matrix is 1. Errors of getrf
// other than its NumericalError are returned unchanged: after a
// *batchlas.InterruptedError the values from its Completed on are NaN. A
// bad argument is a *batchlas.ArgError from "linalg.Det".
func Det[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (batchlas.Vectors[T], error) {
	const op = "linalg.Det"
	lu, ipiv, from, ok, err := factorForDet(ctx, op, a)
	if !ok {
		return batchlas.Vectors[T]{}, err
	}
	d, aerr := allocVectors[T](op, "a", 1, a.Count)
	if aerr != nil {
		return batchlas.Vectors[T]{}, aerr
	}
	for i := range a.Count {
		if i >= from {
			d.Data[i] = T(math.NaN())
			continue
		}
		sign, frac, exp := diagonalProduct(lu, ipiv, i)
		switch {
		case math.IsNaN(sign):
			d.Data[i] = T(math.NaN())
		case sign == 0:
			d.Data[i] = 0
		default:
			d.Data[i] = T(sign * math.Ldexp(frac, exp))
		}
	}
	return d, err
}

// Slogdet returns the sign and the natural logarithm of the absolute
// value of the determinant of every matrix of a (count n x n), each one
// value per matrix in a batchlas.Vectors of length 1: det(A_i) =
// sign.Data[i] * exp(logabsdet.Data[i]). It is numpy.linalg.slogdet(a),
// and where Det would overflow or underflow it does not.
//
// It factors a copy of a with getrf.Getrf (a is not modified, and may be
// a view or a broadcast): the sign is that of the product of U_i's
// diagonal, negated for an odd number of row interchanges, and the
// logarithm is that of the product, formed as a fraction and a power of
// two (computed in float64 for both types, rounded to T).
//
// As in numpy, a singular matrix is no error: a zero on U's diagonal
// gives sign 0 and logabsdet -Inf. A NaN on U's diagonal (a NaN in A) and
// no zero gives NaN for both. A 0x0 matrix gives (1, 0). Errors of getrf
// other than its NumericalError are returned unchanged: after a
// *batchlas.InterruptedError the values from its Completed on are NaN. A
// bad argument is a *batchlas.ArgError from "linalg.Slogdet".
func Slogdet[T batchlas.Float](ctx context.Context, a batchlas.Batch[T]) (sign, logabsdet batchlas.Vectors[T], err error) {
	const op = "linalg.Slogdet"
	lu, ipiv, from, ok, err := factorForDet(ctx, op, a)
	if !ok {
		return batchlas.Vectors[T]{}, batchlas.Vectors[T]{}, err
	}
	sign, aerr := allocVectors[T](op, "a", 1, a.Count)
	if aerr != nil {
		return batchlas.Vectors[T]{}, batchlas.Vectors[T]{}, aerr
	}
	logabsdet = batchlas.NewVectors[T](1, a.Count) // as large as sign
	for i := range a.Count {
		if i >= from {
			sign.Data[i], logabsdet.Data[i] = T(math.NaN()), T(math.NaN())
			continue
		}
		s, frac, exp := diagonalProduct(lu, ipiv, i)
		switch {
		case math.IsNaN(s):
			sign.Data[i], logabsdet.Data[i] = T(math.NaN()), T(math.NaN())
		case s == 0:
			sign.Data[i], logabsdet.Data[i] = 0, T(math.Inf(-1))
		default:
			sign.Data[i] = T(s)
			logabsdet.Data[i] = T(math.Log(frac) + float64(exp)*math.Ln2)
		}
	}
	return sign, logabsdet, err
}

// factorForDet is factor for Det and Slogdet: getrf's NumericalError is
// dropped (a singular matrix has determinant 0, no failure). ok reports
// whether there are results (err is then nil or an InterruptedError), and
// from is the first matrix whose factor is not one (Count when every one
// is).
func factorForDet[T batchlas.Float](ctx context.Context, op string, a batchlas.Batch[T]) (lu batchlas.Batch[T], ipiv batchlas.Vectors[int32], from int, ok bool, err error) {
	lu, ipiv, err = factor(ctx, op, a)
	var ne *batchlas.NumericalError
	if errors.As(err, &ne) {
		err = nil
	}
	ok, _, from = results(err, a.Count)
	return lu, ipiv, from, ok, err
}

// diagonalProduct returns the determinant of matrix i from its LU factor
// and pivots as sign * frac * 2^exp, frac in [0.5, 1) or +Inf, with sign
// -1 or 1; sign 0 when the diagonal holds a zero, NaN when it holds a NaN
// and no zero (numpy's slogdet gives (0, -Inf) whenever LAPACK's getrf
// reports a zero pivot). The fraction is renormalised at every step, so
// no intermediate product overflows or underflows.
func diagonalProduct[T batchlas.Float](lu batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int) (sign, frac float64, exp int) {
	sign, frac = 1, 1
	nan := false
	for j := range lu.Rows {
		if int(ipiv.At(i, j)) != j {
			sign = -sign
		}
		u := float64(lu.At(i, j, j))
		switch {
		case u == 0:
			return 0, 0, 0
		case math.IsNaN(u):
			nan = true
			continue
		case u < 0:
			sign, u = -sign, -u
		}
		m, e := math.Frexp(u)
		frac, exp = frac*m, exp+e
		m, e = math.Frexp(frac)
		frac, exp = m, exp+e
	}
	if nan {
		return math.NaN(), 0, 0
	}
	return sign, frac, exp
}
