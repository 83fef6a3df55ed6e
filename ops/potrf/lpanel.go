package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// lpanelPotrf is per-matrix left-looking blocked Cholesky: one worker
// carries one matrix through all its panels of `panel` columns. Each panel
// is first updated by every column left of it in one sweep (the panel stays
// in L1 while the earlier columns stream past), then factored column by
// column within itself.
func lpanelPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], panel int, info []int32) error {
	n, ld, stride := a.Rows, a.LD, a.Stride
	return parallel.For(ctx, a.Count, flopsPerMatrix(n), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			info[i] = int32(lpanelMatrix(m, ld, n, panel, uplo))
		}
	})
}

// lpanelMatrix factors one matrix in panels of p columns and returns its
// info (0 or the failing column, 1-based).
func lpanelMatrix[T batchlas.Float](m []T, ld, n, p int, uplo batchlas.Uplo) int {
	for j0 := 0; j0 < n; j0 += p {
		jb := min(p, n-j0)
		var f int
		if uplo == batchlas.Lower {
			lowerUpdate(m, ld, j0, jb, n, 0, j0)
			f = lowerPanel(m, ld, j0, jb, n)
		} else {
			upperUpdate(m, ld, j0, jb, n, 0, j0)
			f = upperPanel(m, ld, j0, jb, n)
		}
		if f != 0 {
			return f
		}
	}
	return 0
}
