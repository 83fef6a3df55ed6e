package posv

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// logDetName is the name LogDet's errors carry.
const logDetName = "posv.LogDet"

// LogDet writes log(det(A_i)) = 2*sum_j log(F_i(j, j)) for every matrix of
// a, where F_i is the Cholesky factor of A_i that Posv (or potrf.Potrf)
// left in a: the log-determinant a Gaussian-process likelihood needs next
// to the solve. The determinant itself would overflow or underflow for
// orders of a few hundred; its logarithm does not, and summing logarithms
// needs no rescaling. The sum is accumulated in float64 for both dtypes.
//
// It lives in posv because a Gaussian-process user gets the factor from
// Posv, together with the solve, and needs nothing else; it reads any
// factor potrf wrote as well.
//
// out receives one value per matrix: out.Len must be 1 and out.Count
// a.Count, and out is written, so it may not be a broadcast nor share an
// element with a (batchlas.VectorsAsBatch views it as a batch for that
// check). a is read only (a broadcast gives every out the same value).
// uplo names the triangle Posv wrote; only the diagonal is read, which
// both triangles share, so the result does not depend on it, but it is
// checked like every uplo so a call reads like the Posv call before it.
//
// Only a factor of a positive definite matrix has a positive diagonal. A
// failed matrix's factor (one Posv reported in its NumericalError) gives
// whatever math.Log gives for its diagonal, summed: a zero gives -Inf, a
// negative entry or a NaN gives NaN, +Inf gives +Inf (NaN next to a
// zero). Check the error of the call that factored before using its
// value. An order of 0 gives log det = 0 (the empty product is 1).
//
// A nil ctx is context.Background(); a call whose ctx is cancelled or past
// its deadline returns a *batchlas.InterruptedError (values 0 ..
// Completed-1 are written, the rest untouched). Errors name "posv.LogDet"
// and the argument.
func LogDet[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], out batchlas.Vectors[T]) error {
	ctx = opkit.Context(ctx)
	if err := uplo.Check(logDetName); err != nil {
		return err
	}
	if err := a.Check(logDetName, "a", false); err != nil {
		return err
	}
	if err := out.Check(logDetName, "out", true); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(logDetName, "a", "a is %dx%d; a Cholesky factor is square", a.Rows, a.Cols)
	case out.Len != 1:
		return opkit.Argf(logDetName, "out", "out.Len is %d; want 1 (one log-determinant per matrix)", out.Len)
	case out.Count != a.Count:
		return opkit.Argf(logDetName, "out", "out.Count %d != a.Count %d: want one value per matrix of a", out.Count, a.Count)
	}
	if err := opkit.CheckDisjoint(logDetName, "out", batchlas.VectorsAsBatch(out), "a", a); err != nil {
		return err
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.out = runLogDet, a, out
	return opkit.Interrupted(logDetName, parallel.Run(ctx, a.Count, float64(a.Rows), j))
}
