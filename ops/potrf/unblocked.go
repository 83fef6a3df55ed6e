package potrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
)

// unblockedPotrf factors each matrix left-looking, four columns at a time
// (see lowerPanel): every block of columns sweeps all the columns before it
// once. One worker owns one matrix at a time; Upper goes through a
// transposed copy in the worker's workspace (see perMatrix).
func unblockedPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32) error {
	return perMatrix(ctx, uplo, a, ws, info, factorUnblocked, 0)
}
