package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// lpanelPotrf is per-matrix left-looking blocked Cholesky: one worker
// carries one matrix through all its panels of `panel` columns. Each panel
// is first updated by every column left of it in one sweep (the panel stays
// in L1 while the earlier columns stream past), then factored column by
// column within itself. Upper goes through a transposed copy in the
// worker's workspace (see perMatrix).
func lpanelPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], panel int, ws []T, info []int32) error {
	return perMatrix(ctx, uplo, a, ws, info, func(m []T, ld, n int) int {
		return lpanelLower(m, ld, n, panel)
	})
}

// lpanelLower factors one lower triangle in panels of p columns and returns
// its info (0 or the failing column, 1-based).
func lpanelLower[T batchlas.Float](m []T, ld, n, p int) int {
	for j0 := 0; j0 < n; j0 += p {
		jb := min(p, n-j0)
		lowerUpdateBelow(m, ld, j0, jb, n)
		if f := lowerPanel(m, ld, j0, jb, n); f != 0 {
			return f
		}
	}
	return 0
}

// lowerUpdateBelow is lowerUpdate(m, ld, j0, jb, n, 0, j0): the panel's
// diagonal block (its lower triangle only) in Go, and the rows below it,
// a plain product, with the vector tile (simd.Gemm):
//
//	m[j0+jb:n, j0:j0+jb] -= m[j0+jb:n, 0:j0] * m[j0:j0+jb, 0:j0]^T.
func lowerUpdateBelow[T batchlas.Float](m []T, ld, j0, jb, n int) {
	lowerUpdate(m, ld, j0, jb, j0+jb, 0, j0)
	if below := j0 + jb; j0 > 0 && below < n {
		simd.Gemm(false, true, n-below, jb, j0, -1, m[below:], ld, m[j0:], ld, 1, m[j0*ld+below:], ld)
	}
}
