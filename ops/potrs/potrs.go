package potrs

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "potrs"

// Potrs solves A_i*X = B_i for every i from potrf's Cholesky factor of A_i
// (uplo Lower: A_i = L*L^T, L in the lower triangle of a; Upper:
// A_i = U^T*U, U in the upper triangle), overwriting B_i with X. Only the
// uplo triangle of a is read.
//
// a is n x n and read only: as many matrices as b, or one factor for all
// (batchlas.Broadcast). b is n x nrhs, any nrhs, and written; it may not
// share an element with a (an *ArgError on b). ws is workspace of at least
// BufferSize elements sharing none with a or b (an *ArgError on ws); nil
// means the call allocates what it needs.
//
// No numerical failure is reported: as in LAPACK, the factor is taken as
// potrf left it, and a zero on its diagonal gives Inf or NaN in X (a NaN
// in the factor gives NaN), like trsm.
//
// A nil ctx is context.Background(). A call with nothing to solve (no
// matrix, n = 0 or nrhs = 0) runs no kernel and makes no decision, so the
// pin is not read: a bad pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of B. The fused and vendor kernels solve each B_i on
// one worker from start to end: B_0 .. B_{Completed-1} are solved, every
// later B_i is untouched (Touched == Completed). nested makes two passes
// over the whole batch, one trsm call each: stopped in the first, it has
// solved none (Completed 0) and may have written the matrices that pass
// reached; stopped in the second, the matrices that pass completed are
// solved and every other may be written (Touched == Count).
func Potrs[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a, b); err != nil {
		return err
	}
	if b.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(uplo, a, b)
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, uplo, a, b, ws)
	})
	return opkit.Interrupted(opName, err)
}

// launch runs kernel c. It refuses exactly what can_run refuses (R3), and
// a workspace shorter than c needs or sharing an element with an operand.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "route", "kernel %s cannot solve n=%d nrhs=%d on device %s; pin another kernel or unset the pin", c, b.Rows, b.Cols, dev.Key)
	}
	need, err := bufferSize(ctx, c, uplo, a, b)
	if err != nil {
		return err
	}
	if ws != nil {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
				n, err := bufferSize(ctx, c, uplo, a, b)
				if err != nil {
					return -1 // cannot size it: fits no worker count
				}
				return n
			})
		}
		ws = ws[:need]
		if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
			return err
		}
		if err := opkit.CheckWorkspace(opName, ws, "b", b); err != nil {
			return err
		}
	}
	switch c.Family() {
	case fusedFamily:
		return fusedPotrs(ctx, uplo, a, b)
	case nestedFamily:
		return nestedPotrs(ctx, uplo, a, b, ws)
	case vendorFamily:
		return vendorPotrs(ctx, uplo, a, b, ws)
	}
	return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to potrs.go)", opName, c)
}

// BufferSize returns the workspace, in elements, that Potrs needs for
// these arguments: it asks the selection core the same question Potrs
// asks, with the same context (pins, device, the worker cap of
// batchlas.WithParallelism), so the size fits the kernel that will run;
// for nested, the larger of what its two trsm calls need. It refuses the
// operands Potrs refuses. For a call with nothing to solve it is 0, with
// no decision (the pin is not read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a, b); err != nil {
		return 0, err
	}
	if b.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(uplo, a, b), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, uplo, a, b)
}

// check validates the arguments of Potrs and BufferSize.
func check[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T]) error {
	if err := uplo.Check(opName); err != nil {
		return err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(opName, "a", "a is %dx%d; the Cholesky factor must be square", a.Rows, a.Cols)
	case a.Rows != b.Rows:
		return opkit.Argf(opName, "b", "b has %d rows but a is %dx%d; b must have n = a's order rows (one column per right-hand side)", b.Rows, a.Rows, a.Cols)
	case a.Count != b.Count:
		return opkit.Argf(opName, "a", "a.Count %d != b.Count %d: give one factor per matrix of b, or batchlas.Broadcast(a, %d) to use one factor for all", a.Count, b.Count, b.Count)
	}
	return opkit.CheckDisjoint(opName, "b", b, "a", a)
}

// makeKey builds the call's key in the order of the declared key names:
// uplo:exact n:log:4 nrhs:log:4 batch:log.
func makeKey[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Str(uplo.String()), sel.Int(a.Rows), sel.Int(b.Cols), sel.Int(b.Count))
}

// canRun is potrs's correctness gate (R3): the native kernels solve every
// shape; vendor needs gonum's LAPACK in the build.
func canRun(c sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case fusedFamily, nestedFamily:
		return true
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return false
}

// bufferSize is the workspace kernel c needs: none for fused (it works in
// place on B); for vendor, a transposed copy of B_i per worker a call with
// ctx may use, when B has more than one column; for nested, what the two
// trsm calls it makes need, asked of trsm's BufferSize under the same ctx
// (so a pin of trsm is honoured and sized for). Its error is trsm's
// (a bad trsm pin).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case nestedFamily:
		return nestedSize(ctx, uplo, a, b)
	case vendorFamily:
		return parallel.Workers(ctx) * vendorScratch(b.Rows, b.Cols), nil
	}
	return 0, nil
}

// flopsPerMatrix is the work of one solve, two triangular solves of
// n^2*nrhs flops each: what parallel.For weighs a matrix by and what the
// benchmarks report GFLOP/s against.
func flopsPerMatrix(n, nrhs int) float64 {
	return 2 * float64(n) * float64(n) * float64(nrhs)
}
