package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// unblockedGetrf factors each matrix in place with getf2 over all its
// columns (LAPACK's unblocked getf2): one worker owns one matrix at a time.
func unblockedGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	small := lu.SafeMin[T]()
	return perMatrix(ctx, a, ipiv, info, func(m []T, ld, n int, piv []int32) {
		lu.Getf2(m, ld, n, 0, n, 0, n, piv, small)
	})
}

// perMatrix runs factor on every matrix of a, one worker per matrix at a
// time, with the matrix's pivot vector (its first n entries), and sets
// its info from the factored diagonal.
func perMatrix[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32, factor func(m []T, ld, n int, piv []int32)) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			factor(m, ld, n, pivots(ipiv, i, n))
			info[i] = lu.DiagInfo(m, ld, n)
		}
	})
}

// pivots is the first n entries of pivot vector i.
func pivots(ipiv batchlas.Vectors[int32], i, n int) []int32 {
	o := i * ipiv.Stride
	return ipiv.Data[o : o+n : o+n]
}
