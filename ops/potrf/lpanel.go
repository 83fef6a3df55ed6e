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
	return perMatrix(ctx, uplo, a, ws, info, factorLpanel, panel)
}

// lpanelLower factors one lower triangle in panels of p columns and returns
// its info (0 or the failing column, 1-based).
func lpanelLower[T batchlas.Float](m []T, ld, n, p int) int {
	for j0 := 0; j0 < n; j0 += p {
		jb := min(p, n-j0)
		if j1 := j0 + jb; j1 < n {
			// The next panel's triangle, first touched after this
			// panel: in a batch each matrix arrives from memory a
			// panel at a time, and potrf n = 256 batch = 64 ran about
			// a tenth faster with the hint (Zen 5).
			simd.Prefetch(m[j1*ld+j1:], n-j1, ld, min(p, n-j1), 1)
		}
		lowerUpdateBelow(m, ld, j0, jb, n)
		if f := lowerPanel(m, ld, j0, jb, n); f != 0 {
			return f
		}
	}
	return 0
}

// maxPanel is the widest panel lpanel takes (its largest candidate): the
// strictly upper part of a diagonal block of that order fits in
// lowerUpdateBelow's stack buffer.
const maxPanel = 32

// lowerUpdateBelow is lowerUpdate(m, ld, j0, jb, n, 0, j0), the panel's
// update by every column left of it, as one product on the vector tile
// (simd.Gemm):
//
//	m[j0:n, j0:j0+jb] -= m[j0:n, 0:j0] * m[j0:j0+jb, 0:j0]^T.
//
// The product also covers the strictly upper part of the panel's
// diagonal block, which belongs to the other triangle and must be left as
// the caller stored it: it is saved before and put back after. Computing
// the block's lower triangle by scalar code instead made it 45% of the
// time at n=128 with panels of 8, for a tenth of the flops.
func lowerUpdateBelow[T batchlas.Float](m []T, ld, j0, jb, n int) {
	lowerUpdateTile(m, ld, j0, jb, n, 0)
}

// lowerUpdateTile subtracts the columns [k0, j0) from the columns [j0,
// j0+jb) of the lower triangle, rows j0 to rowEnd, on the vector tile,
// the strictly upper part of the diagonal block saved and put back (see
// lowerUpdateBelow); jb <= maxPanel.
func lowerUpdateTile[T batchlas.Float](m []T, ld, j0, jb, rowEnd, k0 int) {
	if j0 <= k0 {
		return
	}
	// The save buffer is cleared on every call, so a panel of up to 8
	// columns (every in-panel block, and the common panel) takes a small
	// one rather than the 496 entries a panel of 32 needs.
	if jb <= 8 {
		var upper [8 * 7 / 2]T
		updateKeepingUpper(m, ld, j0, jb, rowEnd, k0, upper[:])
		return
	}
	var upper [maxPanel * (maxPanel - 1) / 2]T
	updateKeepingUpper(m, ld, j0, jb, rowEnd, k0, upper[:])
}

// updateKeepingUpper is lowerUpdateTile with upper as the save buffer for
// the diagonal block's strictly upper part (jb*(jb-1)/2 entries).
func updateKeepingUpper[T batchlas.Float](m []T, ld, j0, jb, rowEnd, k0 int, upper []T) {
	k := 0
	for c := 1; c < jb; c++ {
		k += copy(upper[k:], m[(j0+c)*ld+j0:(j0+c)*ld+j0+c])
	}
	simd.Gemm(false, true, rowEnd-j0, jb, j0-k0, -1, m[k0*ld+j0:], ld, m[k0*ld+j0:], ld, 1, m[j0*ld+j0:], ld)
	k = 0
	for c := 1; c < jb; c++ {
		k += copy(m[(j0+c)*ld+j0:(j0+c)*ld+j0+c], upper[k:])
	}
}
