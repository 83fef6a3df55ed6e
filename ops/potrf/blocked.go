package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// TEMPORARY until ops/trsm builds: per-matrix kernels only.
func blockedPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	if a.Rows <= tinyMax {
		return tinyPotrf(ctx, uplo, a, info)
	}
	return lpanelPotrf(ctx, uplo, a, 16, info)
}
