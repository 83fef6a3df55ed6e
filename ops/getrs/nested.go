package getrs

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// The nested family: three passes over the whole batch, the two
// triangular solves through trsm's public entry point, so trsm chooses its
// own kernel for the batch (its blocked kernel hands the off-diagonal
// updates to gemm) and its decisions are traced and covered beneath
// getrs's:
//
//	NoTrans: B := P^T*B (here), L*Z = B (trsm L L N U), U*X = Z (trsm L U N N)
//	Trans:   U^T*Z = B (trsm L U T N), L^T*Y = Z (trsm L L T U), X := P*Y (here)
//
// The interchanges are a pass of their own, parallel over the matrices:
// trsm knows nothing of pivots.

// solveStep is one of the two trsm calls: which triangle, which way,
// which diagonal.
type solveStep struct {
	uplo batchlas.Uplo
	diag batchlas.Diag
}

// steps are the two trsm calls of a solve, in order.
func steps(p *problem) [2]solveStep {
	l := solveStep{batchlas.Lower, batchlas.Unit}
	u := solveStep{batchlas.Upper, batchlas.NonUnit}
	if p.trans == batchlas.Trans {
		return [2]solveStep{u, l}
	}
	return [2]solveStep{l, u}
}

// nestedSize is the workspace of the nested family: the larger of the two
// trsm calls' BufferSize under the same ctx, as they run one after the
// other on the same operands.
func nestedSize[T batchlas.Float](ctx context.Context, p *problem, a, b batchlas.Batch[T]) (int, error) {
	need := 0
	for _, s := range steps(p) {
		n, err := trsm.BufferSize(ctx, batchlas.Left, s.uplo, p.trans, s.diag, a, b)
		if err != nil {
			return 0, err
		}
		need = max(need, n)
	}
	return need, nil
}

// launchNested runs the three passes; ws is nil (trsm allocates) or
// holds nestedSize elements.
func launchNested[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T) error {
	count := b.Count
	st := steps(p)
	// Pass 0 swaps B's rows, passes 1 and 2 solve st[0] and st[1]; the
	// transposed solve swaps last.
	order := [3]int{0, 1, 2}
	if p.trans == batchlas.Trans {
		order = [3]int{1, 2, 0}
	}
	for k, pass := range order {
		var err error
		if pass == 0 {
			err = runJob(ctx, runSwap, p, a, ipiv, b, float64(p.n*p.nrhs))
		} else {
			s := st[pass-1]
			err = trsm.Trsm(ctx, batchlas.Left, s.uplo, p.trans, s.diag, 1, a, b, ws)
		}
		if err != nil {
			return interruptedPass(err, k, count)
		}
	}
	return nil
}

// interruptedPass turns the *InterruptedError of pass k (0, 1 or 2) over B
// into getrs's report for the batch of count: in the first pass, the
// matrices the pass reached may be partly written and the rest are
// untouched; in the second, every matrix may be partly written; in the
// last, the matrices the pass completed are complete. Any other error
// (from a nested call's arguments or pin) is returned as it is.
func interruptedPass(err error, k, count int) error {
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	out := &batchlas.InterruptedError{Count: count, Touched: count, Err: ie.Err}
	switch k {
	case 0:
		out.Touched = ie.Touched
	case 2:
		out.Completed = ie.Completed
	}
	return out
}
