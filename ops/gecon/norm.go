package gecon

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
)

// Norm writes ||A_i|| in the norm norm (batchlas.OneNorm: the largest
// absolute column sum; batchlas.InfNorm: the largest absolute row sum) to
// anorm_i for every matrix of a, LAPACK's xLANGE: the anorm Gecon needs,
// taken before the matrices are factored. A NaN anywhere in A_i makes
// ||A_i|| NaN (it is never lost to a max), and an Inf makes it +Inf. a is
// read only and may be a broadcast; anorm needs a.Count elements and may
// share none with a. An empty matrix has norm 0. The matrices are spread
// over the workers of ctx (batchlas.WithParallelism applies): n^2
// additions each, far less than the factorisation that follows. A nil ctx
// is context.Background(); the call is not interrupted by it.
func Norm[T batchlas.Float](ctx context.Context, norm batchlas.Norm, a batchlas.Batch[T], anorm []T) error {
	if err := norm.Check(opName, "norm"); err != nil {
		return err
	}
	return condest.Norms(ctx, opName, a, false, anorm, func(m []T) T { return matrixNorm(norm, m, a.LD, a.Rows, a.Cols) })
}

// matrixNorm is the norm of one rows x cols matrix m with leading
// dimension ld, NaN when it holds a NaN.
func matrixNorm[T batchlas.Float](norm batchlas.Norm, m []T, ld, rows, cols int) T {
	var out T
	if norm == batchlas.OneNorm {
		for c := range cols {
			var s T
			for _, v := range m[c*ld : c*ld+rows] {
				s += abs(v)
			}
			if s > out || s != s {
				out = s
				if s != s {
					return s
				}
			}
		}
		return out
	}
	for r := range rows {
		var s T
		for c := range cols {
			s += abs(m[c*ld+r])
		}
		if s > out || s != s {
			out = s
			if s != s {
				return s
			}
		}
	}
	return out
}

func abs[T batchlas.Float](v T) T {
	if v < 0 {
		return -v
	}
	return v
}
