package potri

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "potri"

// check validates the arguments of Potri.
func check[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T]) error {
	if err := uplo.Check(opName); err != nil {
		return err
	}
	if err := a.Check(opName, "a", true); err != nil {
		return err
	}
	if a.Rows != a.Cols {
		return opkit.Argf(opName, "a", "a is %dx%d; a Cholesky factor is square", a.Rows, a.Cols)
	}
	return nil
}

// Potri overwrites every Cholesky factor A_i that potrf left (A_i = L*L^T
// for uplo Lower, U^T*U for Upper, in its uplo triangle) with the uplo
// triangle of the inverse of the matrix it factors (LAPACK's xPOTRI,
// batched, column-major): inv(A) = inv(L)^T*inv(L) (or inv(U)*inv(U)^T),
// symmetric, so one triangle holds it. Only the uplo triangle is read and
// written; the other is never touched. Potri needs no workspace.
//
// A factor with a zero or a NaN on its diagonal (which potrf does not
// leave: it reports such a matrix) has no inverse or only a NaN one: it
// is a per-matrix failure, reported in a *batchlas.NumericalError with
// info j+1 for the first such diagonal entry j (LAPACK's code, 1-based),
// whichever kernel runs, and its A_i is left exactly as it was; every
// other matrix is inverted. An infinity elsewhere propagates by IEEE
// arithmetic.
//
// A call with nothing to invert (no matrix, or n == 0) reads nothing and
// makes no decision, so the pin is not read. A nil ctx is
// context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel inverts
// each matrix on one worker from start to end, so matrices 0 ..
// Completed-1 are inverted (or reported failed) and every later one is
// untouched (Touched == Completed); its Failed field lists the failures
// among the completed ones.
func Potri[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T]) error {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(uplo, a)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "kernel %s cannot invert n=%d on device %s; pin another kernel or unset the pin", c, a.Rows, dev.Key)
		}
		switch c.Family() {
		case permatrix:
			return runJob(ctx, runPerMatrix, uplo == batchlas.Lower, a, info)
		case lanesFamily:
			return lanesPotri(ctx, uplo == batchlas.Lower, a, info)
		case vendor:
			return runJob(ctx, runVendor, uplo == batchlas.Lower, a, info)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to potri.go)", opName, c)
	})
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Op = opName
		// The completed matrices' info is final; InfoError copies it out.
		ie.Failed, _ = opkit.InfoError(opName, info[:ie.Completed]).(*batchlas.NumericalError)
		return ie
	}
	if err != nil {
		return err
	}
	return opkit.InfoError(opName, info)
}

// makeKey builds the call's key in the order of the declared key names.
func makeKey[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Str(uplo.String()), sel.Int(a.Rows), sel.Int(a.Count))
}

// flopsPerMatrix is the cost of one inverse from its factor, 2n^3/3
// (LAPACK's count for xPOTRI: n^3/3 for each step).
func flopsPerMatrix(n int) float64 {
	f := float64(n)
	return 2 * f * f * f / 3
}
