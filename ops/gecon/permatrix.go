package gecon

import (
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/lusolve"
)

// estimator is the permatrix kernel for the call's norm: the estimator
// (condest.InvNorm1) per matrix, its solves through lusolve.Solve with the
// factor as getrf left it; a zero-size value per norm.
func estimator[T batchlas.Float](p *problem) condest.Estimator[T] {
	if p.norm == batchlas.InfNorm {
		return infEstimate[T]{}
	}
	return oneEstimate[T]{}
}

type (
	oneEstimate[T batchlas.Float] struct{}
	infEstimate[T batchlas.Float] struct{}
)

func (oneEstimate[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return estimate(false, m, ld, n, an, scratch)
}

func (infEstimate[T]) Rcond(m []T, ld, n int, an T, scratch []T) T {
	return estimate(true, m, ld, n, an, scratch)
}

// luSolver applies (A/s)^-1 or its transpose to a vector through the
// factor: x is scaled by s, then solved in place. For the infinity norm
// the roles of A and A^T swap (||A^-1||_inf = ||A^-T||_1).
type luSolver[T batchlas.Float] struct {
	m     []T
	ld, n int
	piv   []int32
	s     T
	swap  bool
}

func (l luSolver[T]) Solve(x []T, trans bool) {
	for i := range x {
		x[i] *= l.s
	}
	lusolve.Solve(trans != l.swap, l.m, l.ld, l.n, l.piv, x, l.n, 1)
}

// estimate is rcond of one matrix with a finite factor and a finite,
// positive anorm; inf selects the infinity norm.
func estimate[T batchlas.Float](inf bool, m []T, ld, n int, an T, scratch []T) T {
	s := condest.Scale(an)
	sv := luSolver[T]{m: m, ld: ld, n: n, piv: identityPivots(n), s: s, swap: inf}
	est, finite := condest.InvNorm1(n, scratch[:n], scratch[n:2*n], sv)
	return condest.Rcond(an, s, est, finite)
}

// identity holds the pivots 0, 1, 2, ...: lusolve.Solve applies
// interchanges, and the estimate needs none (the norms of A^-1 do not
// change when its columns are permuted). It only grows, and a published
// slice is never written again, so workers share it without a lock.
var identity atomic.Pointer[[]int32]

// identityPivots returns the identity pivots of order n.
func identityPivots(n int) []int32 {
	if p := identity.Load(); p != nil && len(*p) >= n {
		return (*p)[:n]
	}
	s := make([]int32, max(n, 64))
	for i := range s {
		s[i] = int32(i)
	}
	identity.Store(&s)
	return s[:n]
}
