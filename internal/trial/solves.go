package trial

import (
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// The checks two ops share: getrs and gesv both solve with an LU factor
// (LUScale), potrs and posv with a Cholesky factor (CheckCholeskySolve).

// LUScale returns P*|L|*|U| for the LU factor lu (as getrf leaves it)
// with pivot vector i of ipiv: the scale of the rounding errors of an LU
// solve. It refuses pivots outside [j, n).
func LUScale(lu Dense, ipiv batchlas.Vectors[int32], i int) (Dense, error) {
	n := lu.R
	l := NewDense(n, n)
	u := NewDense(n, n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			switch {
			case r > c:
				l.V[r+c*n] = lu.At(r, c)
			case r == c:
				l.V[r+c*n] = 1
				u.V[r+c*n] = lu.At(r, c)
			default:
				u.V[r+c*n] = lu.At(r, c)
			}
		}
	}
	abs := AbsMul(l, u)
	for j := n - 1; j >= 0; j-- { // P*(|L|*|U|): undo the interchanges, last first
		q := int(ipiv.At(i, j))
		if q < j || q >= n {
			return Dense{}, fmt.Errorf("matrix %d: ipiv[%d] = %d, want in [%d, %d)", i, j, q, j, n)
		}
		for c := 0; c < n; c++ {
			abs.V[j+c*n], abs.V[q+c*n] = abs.V[q+c*n], abs.V[j+c*n]
		}
	}
	return abs, nil
}

// CheckCholeskySolve checks the first, middle and last systems of a
// Cholesky solve: with A_i the SPD matrix spd's i%spd.Count, F_i the
// factor in the uplo triangle of matrix i of f and X_i the solution in x,
// |A_i*X_i - B_i| <= 4*(3n+2)*eps * |F_i^T|*|F_i|*|X_i| elementwise (the
// factorisation and both substitutions together solve (A + dA)*X = B with
// |dA| <= gamma(3n+1)*|F^T|*|F|: Higham, Accuracy and Stability of
// Numerical Algorithms, 2nd ed., theorem 10.4). A NaN or Inf anywhere
// fails.
func CheckCholeskySolve[T batchlas.Float](uplo batchlas.Uplo, spd, f, b, x batchlas.Batch[T]) error {
	n := f.Rows
	tol := 4 * float64(3*n+2) * matgen.Eps[T]()
	for _, i := range CheckedMatrices(b.Count) {
		a := DenseOf(spd, i%spd.Count)
		fi := DenseOf(f, i)
		l := NewDense(n, n) // the factor as L (U^T for Upper)
		for j := 0; j < n; j++ {
			for r := j; r < n; r++ {
				if uplo == batchlas.Lower {
					l.V[r+j*n] = fi.At(r, j)
				} else {
					l.V[r+j*n] = fi.At(j, r)
				}
			}
		}
		xi := DenseOf(x, i)
		prod := Mul(a, xi)
		ltx := AbsMul(l.Op(true), xi)
		scale := AbsMul(l, ltx)
		if err := WithinBound(fmt.Sprintf("matrix %d: A*X vs B", i), prod, DenseOf(b, i), scale, tol); err != nil {
			return err
		}
	}
	return nil
}
