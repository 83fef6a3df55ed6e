package potrs

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// solves are the two triangular solves of A*X = B from the factor: L*Y = B
// then L^T*X = Y for Lower, U^T*Y = B then U*X = Y for Upper.
func solves(uplo batchlas.Uplo) (first, second batchlas.Transpose) {
	if uplo == batchlas.Upper {
		return batchlas.Trans, batchlas.NoTrans
	}
	return batchlas.NoTrans, batchlas.Trans
}

// nestedPotrs makes the two solves with the trsm op, each on the whole
// batch through trsm's public entry point with this call's context, so
// both decisions are traced under potrs's line, counted for coverage and
// served by trsm's own table (its blocked kernel hands the large
// off-diagonal updates to gemm). Both get this call's workspace, which
// nestedSize sized for the larger of the two (nil: trsm allocates).
func nestedPotrs[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T) error {
	first, second := solves(uplo)
	if err := trsm.Trsm(ctx, batchlas.Left, uplo, first, batchlas.NonUnit, 1, a, b, ws); err != nil {
		// Nothing is solved yet; the first pass wrote what it reached.
		return interrupted(err, b.Count, func(ie *batchlas.InterruptedError) (int, int) { return 0, ie.Touched })
	}
	if err := trsm.Trsm(ctx, batchlas.Left, uplo, second, batchlas.NonUnit, 1, a, b, ws); err != nil {
		// The second pass completed its prefix; the first wrote every B_i.
		return interrupted(err, b.Count, func(ie *batchlas.InterruptedError) (int, int) { return ie.Completed, b.Count })
	}
	return nil
}

// interrupted turns the *InterruptedError of a nested trsm call (over the
// same batch, but naming trsm and its own pass) into potrs's report, with
// [completed, touched) from span; any other error (a bad trsm pin) is
// returned as it is.
func interrupted(err error, count int, span func(*batchlas.InterruptedError) (int, int)) error {
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	completed, touched := span(ie)
	return &batchlas.InterruptedError{Count: count, Completed: completed, Touched: touched, Err: ie.Err}
}

// nestedSize is the workspace of nested: the larger of its two trsm
// calls' BufferSize under ctx, so one buffer serves both in turn.
func nestedSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	first, second := solves(uplo)
	n1, err := trsm.BufferSize(ctx, batchlas.Left, uplo, first, batchlas.NonUnit, a, b)
	if err != nil {
		return 0, err
	}
	n2, err := trsm.BufferSize(ctx, batchlas.Left, uplo, second, batchlas.NonUnit, a, b)
	if err != nil {
		return 0, err
	}
	return max(n1, n2), nil
}
