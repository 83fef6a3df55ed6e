package batchlas

import (
	"context"

	"github.com/batchlas-go/batchlas/internal/condopt"
)

// WithConditionCheck returns a context with which the solvers that factor
// (gesv and posv, and the linalg calls made on them) also estimate the
// reciprocal condition number of every matrix in the 1-norm (gecon or
// pocon on the factor, with ||A_i||_1 taken before factoring) and report a
// matrix whose estimate is below rcondMin, or NaN, as ill-conditioned, as
// LAPACK's xGESVX does: its X_i is still written, and the call's
// *NumericalError lists it with info n+1 (a singular matrix keeps its info
// in 1..n and its B_i is left alone). rcondMin 0 means n*eps of the call's
// dtype (n*2.2e-16 for float64, n*1.2e-7 for float32); a negative or NaN
// rcondMin is an *ArgError from the solver. The check is off by default:
// it costs about the price of four to eleven solves with one right-hand
// side per matrix, and a slice of count values.
func WithConditionCheck(ctx context.Context, rcondMin float64) context.Context {
	return condopt.With(ctx, rcondMin)
}
