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
