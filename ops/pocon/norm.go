package pocon

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
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
	if err := a.Check(opName, "a", false); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(opName, "a", "a is %dx%d; a symmetric matrix is square", a.Rows, a.Cols)
	case len(anorm) < a.Count:
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
			anorm[i] = symmetricNorm(uplo, a.Data[i*a.Stride:], a.LD, a.Rows)
		}
	})
	return nil
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
