package pocon

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
	"github.com/batchlas-go/batchlas/internal/condest"
)

// estimator is the permatrix kernel for the call's triangle, a zero-size
// value per triangle: the
// estimator (condest.InvNorm1) per matrix, its solves through chol.Solve
// with the factor as potrf left it.
func estimator[T batchlas.Float](p *problem) condest.Estimator[T] {
	if p.uplo == batchlas.Upper {
		return upperEstimate[T]{}
	}
	return lowerEstimate[T]{}
}

type (
	lowerEstimate[T batchlas.Float] struct{}
	upperEstimate[T batchlas.Float] struct{}
)

func (lowerEstimate[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return estimate(batchlas.Lower, m, ld, n, an, scratch)
}

func (upperEstimate[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return estimate(batchlas.Upper, m, ld, n, an, scratch)
}

// cholSolver applies (A/s)^-1 to a vector through the Cholesky factor: x
// is scaled by s, then solved in place. A is symmetric, so the transpose
// is the same solve.
type cholSolver[T batchlas.Float] struct {
	m     []T
	ld, n int
	uplo  batchlas.Uplo
	s     T
}

func (c cholSolver[T]) Solve(x []T, _ bool) {
	for i := range x {
		x[i] *= c.s
	}
	chol.Solve(c.uplo, c.m, c.ld, c.n, x, c.n, 1)
}

// estimate is rcond of one matrix with a finite factor and a finite,
// positive anorm.
func estimate[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int, an T, scratch []T) T {
	s := condest.Scale(an)
	sv := cholSolver[T]{m: m, ld: ld, n: n, uplo: uplo, s: s}
	est, finite := condest.InvNorm1(n, scratch[:n], scratch[n:2*n], sv)
	return condest.Rcond(an, s, est, finite)
}
