package gecon

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
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
	if err := a.Check(opName, "a", false); err != nil {
		return err
	}
	if len(anorm) < a.Count {
		return opkit.Argf(opName, "anorm", "len(anorm) %d < a.Count %d: anorm receives one norm per matrix", len(anorm), a.Count)
	}
	if a.Count == 0 {
		return nil
	}
	out, _ := batchlas.WrapBatch(anorm[:a.Count], 1, 1, a.Count)
	if err := opkit.CheckDisjoint(opName, "anorm", out, "a", a); err != nil {
		return err
	}
	// Spread over the workers (n^2 reads per matrix, none written but
	// anorm_i); it runs to its end whatever ctx says.
	_ = parallel.For(context.WithoutCancel(opkit.Context(ctx)), a.Count, float64(a.Rows*a.Cols), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			anorm[i] = matrixNorm(norm, a.Data[i*a.Stride:], a.LD, a.Rows, a.Cols)
		}
	})
	return nil
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
