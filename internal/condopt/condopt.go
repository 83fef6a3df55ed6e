// Package condopt carries the solvers' condition check through a context:
// batchlas.WithConditionCheck sets it, gesv and posv read it. It lives
// apart from the root package so that the ops can read it without the
// reader being part of the user's API.
package condopt

import "context"

type key struct{}

// With returns ctx with the check on at threshold min (0: the default,
// n*eps of the call's dtype).
func With(ctx context.Context, min float64) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, key{}, min)
}

// From returns the threshold ctx carries and whether the check is on.
func From(ctx context.Context) (min float64, on bool) {
	if ctx == nil {
		return 0, false
	}
	min, on = ctx.Value(key{}).(float64)
	return min, on
}

// Threshold is the threshold of the check for a call on n x n matrices
// whose dtype has machine epsilon eps, and whether the check is on. bad is
// the reason a threshold is refused ("" if it is not): a negative or NaN
// one, which the solver returns as an argument error.
func Threshold(ctx context.Context, n int, eps float64) (thr float64, on bool, bad string) {
	min, on := From(ctx)
	switch {
	case !on:
		return 0, false, ""
	case !(min >= 0):
		return 0, true, "the threshold of batchlas.WithConditionCheck is a reciprocal condition number, >= 0 (0 means n*eps)"
	case min == 0:
		return float64(n) * eps, true, ""
	}
	return min, true, ""
}

// Mark gives info n+1 to every matrix that succeeded (info 0) and whose
// estimate is below thr or NaN, as LAPACK's xGESVX reports an
// ill-conditioned matrix; the failures already reported keep their info.
func Mark[T ~float32 | ~float64](info []int32, rcond []T, n int, thr float64) {
	for i, r := range rcond {
		if info[i] == 0 && !(float64(r) >= thr) {
			info[i] = int32(n + 1)
		}
	}
}

// Epsilon is the machine epsilon of T, the distance from 1 to the next
// number (numpy's finfo.eps): 2^-52 for float64, 2^-23 for float32.
func Epsilon[T ~float32 | ~float64]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-23
	}
	return 0x1p-52
}

// Check is the condition check across one solver call: the norms of the
// matrices, taken before they are factored (the solver fills Anorm), and
// the threshold.
type Check[T ~float32 | ~float64] struct {
	Anorm []T
	thr   float64
	n     int
}

// Start returns the check of a call on count n x n matrices when ctx
// carries one (nil otherwise), or the reason its threshold is refused.
func Start[T ~float32 | ~float64](ctx context.Context, n, count int) (c *Check[T], bad string) {
	thr, on, bad := Threshold(ctx, n, Epsilon[T]())
	if !on || bad != "" {
		return nil, bad
	}
	return &Check[T]{Anorm: make([]T, count), thr: thr, n: n}, ""
}

// Finish marks the matrices whose estimate rcond is below the threshold
// (Mark).
func (c *Check[T]) Finish(info []int32, rcond []T) { Mark(info, rcond, c.n, c.thr) }
