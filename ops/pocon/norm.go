package pocon

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
)

// Norm writes ||A_i||_1 (which for a symmetric matrix is also
// ||A_i||_inf) to anorm_i for every symmetric matrix of a, read from its
// uplo triangle only, LAPACK's xLANSY: the anorm Pocon needs, taken before
// the matrices are factored. A NaN in the triangle makes ||A_i|| NaN (it
// is never lost to a max), and an Inf makes it +Inf. a is read only and
// may be a broadcast; anorm needs a.Count elements and may share none with
// a. The matrices are spread over the workers of ctx
// (batchlas.WithParallelism applies): n^2 additions each, far less than
// the factorisation that follows. A nil ctx is context.Background(); the
// call is not interrupted by it.
func Norm[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], anorm []T) error {
	if err := uplo.Check(opName); err != nil {
		return err
	}
	return condest.Norms(ctx, opName, a, true, anorm, func(m []T) T { return symmetricNorm(uplo, m, a.LD, a.Rows) })
}

// symmetricNorm is the 1-norm of the n x n symmetric matrix whose uplo
// triangle m holds (leading dimension ld), NaN when it holds a NaN.
// Column j of the full matrix is column j of the stored triangle plus row
// j of it on the other side of the diagonal.
func symmetricNorm[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int) T {
	var out T
	for j := range n {
		var s T
		if uplo == batchlas.Lower {
			for _, v := range m[j*ld+j : j*ld+n] {
				s += abs(v)
			}
			for c := range j {
				s += abs(m[c*ld+j])
			}
		} else {
			for _, v := range m[j*ld : j*ld+j+1] {
				s += abs(v)
			}
			for c := j + 1; c < n; c++ {
				s += abs(m[c*ld+j])
			}
		}
		if s != s {
			return s
		}
		out = max(out, s)
	}
	return out
}

func abs[T batchlas.Float](v T) T {
	if v < 0 {
		return -v
	}
	return v
}
