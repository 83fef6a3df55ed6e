package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// unblockedPotrf factors each matrix in place, column by column (row by row
// for Upper), left-looking: every column sweeps all the columns before it
// once. One worker owns one matrix at a time; nothing is allocated.
func unblockedPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			var f int
			if uplo == batchlas.Lower {
				f = lowerPanel(m, ld, 0, n, n)
			} else {
				f = upperPanel(m, ld, 0, n, n)
			}
			info[i] = int32(f)
		}
	})
}
