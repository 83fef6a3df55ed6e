package posv

import (
	"context"
	"fmt"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/parallel"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "posv"

// Posv solves A_i*X = B_i for every symmetric positive definite A_i of a
// batch: it factors A_i in place, A_i = L*L^T (Lower) or U^T*U (Upper), as
// potrf does, and overwrites B_i with X, as potrs does. Only the uplo
// triangle of a is read and written; the other triangle and all padding
// are left untouched.
//
// a is n x n and b is n x nrhs (any nrhs, 0 included: then it only
// factors); both are written, so neither may be a broadcast, and they may
// not share an element (an *ArgError on b). ws is workspace of at least
// BufferSize elements sharing none with a or b (an *ArgError on ws); nil
// means the call allocates what it needs.
//
// A matrix that is not positive definite (NaN included) does not stop the
// batch: every other system is still solved, and the call returns a
// *batchlas.NumericalError listing the failed matrices with potrf's info
// (the order of the leading minor that is not positive definite, from 1).
// A failed system's B_i is left exactly as it was, bit for bit; its A_i's
// triangle is unspecified, as potrf leaves it.
//
// With batchlas.WithConditionCheck in ctx, posv also takes ||A_i||_1
// before factoring (from the uplo triangle) and estimates rcond_i from
// the factor (package pocon, its decision traced after posv's); a matrix
// that factored but whose rcond_i is below the threshold (n*eps by
// default) or NaN is solved all the same (X_i is written) and listed with
// info n+1, as LAPACK's xPOSVX reports it. The check allocates its norms
// and estimates, and runs to its end once the systems are solved,
// whatever ctx says. Without it, "not positive definite" means a pivot
// that is not > 0 only: a singular or indefinite matrix can factor with a
// tiny positive pivot and is then solved to garbage.
//
// A nil ctx is context.Background(). A call with no matrix, or of order
// 0, runs no kernel and makes no decision, so the pin is not read: a bad
// pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the systems (A_i, B_i) of the batch; its Failed field lists the
// failures among the completed ones, with their info. The fused kernel
// factors and solves each system on one worker from start to end:
// systems 0 .. Completed-1 are done (or reported failed, B_i untouched),
// every later one is untouched (Touched == Completed). nested factors the
// whole batch with potrf, then solves it with potrs: stopped while
// factoring, it has completed no system (Completed 0) and may have written
// the matrices of a that potrf reached (B untouched); stopped while
// solving, the systems potrs completed are done and every other may be
// written (Touched == Count: its A_i is factored, its B_i may be partly
// solved, except a failed system's, which is untouched).
func Posv[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a, b); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	cond, err := startConditionCheck(ctx, uplo, a)
	if err != nil {
		return err
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(uplo, a, b)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, uplo, a, b, ws, info)
	})
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Op = opName
		// The completed systems' info is final; InfoError copies it out.
		ie.Failed, _ = opkit.InfoError(opName, info[:ie.Completed]).(*batchlas.NumericalError)
		return ie
	}
	if err != nil {
		return err
	}
	if cond != nil {
		if err := finishConditionCheck(ctx, cond, uplo, a, info); err != nil {
			return err
		}
	}
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// launch runs kernel c, writing each matrix's info. It refuses exactly what
// can_run refuses (R3), and a workspace shorter than c needs or sharing an
// element with an operand.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, uplo batchlas.Uplo, a, b batchlas.Batch[T], ws []T, info []int32) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "route", "kernel %s cannot solve n=%d nrhs=%d on device %s; pin another kernel or unset the pin", c, a.Rows, b.Cols, dev.Key)
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
		return fusedPosv(ctx, uplo, a, b, info)
	case nestedFamily:
		return nestedPosv(ctx, uplo, a, b, ws, info)
	case lanesFamily:
		return lanesPosv(ctx, uplo, a, b, ws, info)
	}
	return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to posv.go)", opName, c)
}

// BufferSize returns the workspace, in elements, that Posv needs for these
// arguments: it asks the selection core the same question Posv asks,
// with the same context (pins, device, the worker cap of
// batchlas.WithParallelism), so the size fits the kernel that will run;
// for nested, the larger of what its potrf and potrs calls need. It
// refuses the operands Posv refuses. For a call with no matrix or of order
// 0 it is 0, with no decision (the pin is not read). A nil ctx is
// context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a, b); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(uplo, a, b), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, uplo, a, b)
}

// check validates the arguments of Posv and BufferSize.
func check[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T]) error {
	if err := uplo.Check(opName); err != nil {
		return err
	}
	if err := a.Check(opName, "a", true); err != nil {
		return err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(opName, "a", "a is %dx%d; posv factors square matrices (rows == cols)", a.Rows, a.Cols)
	case a.Rows != b.Rows:
		return opkit.Argf(opName, "b", "b has %d rows but a is %dx%d; b must have n = a's order rows (one column per right-hand side)", b.Rows, a.Rows, a.Cols)
	case a.Count != b.Count:
		return opkit.Argf(opName, "b", "b.Count %d != a.Count %d: posv solves one system per matrix of a", b.Count, a.Count)
	}
	return opkit.CheckDisjoint(opName, "b", b, "a", a)
}

// Key positions, in the order of the declared key names.
const (
	keyUplo = iota
	keyN
	keyNRHS
	keyBatch
)

// makeKey builds the call's key in the order of the declared key names:
// uplo:exact n:log:4 nrhs:log:4 batch:log.
func makeKey[T batchlas.Float](uplo batchlas.Uplo, a, b batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Str(uplo.String()), sel.Int(a.Rows), sel.Int(b.Cols), sel.Int(a.Count))
}

// canRun is posv's correctness gate (R3): fused and nested solve every
// shape, lanes orders up to lanesMax.
func canRun(c sel.Choice, k sel.Key, _ *sel.Device) bool {
	switch c.Family() {
	case fusedFamily, nestedFamily:
		return true
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	}
	return false
}

// bufferSize is the workspace kernel c needs: none for fused (it works in
// place); a group per worker for lanes; for nested, the larger of potrf's
// and potrs's BufferSize under the same ctx (the two calls use one buffer
// in turn). Its error is theirs (a bad pin of potrf, potrs or trsm).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, uplo batchlas.Uplo, a, b batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case nestedFamily:
		return nestedSize(ctx, uplo, a, b)
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](a.Rows, b.Cols), nil
	}
	return 0, nil
}

// flopsPerMatrix is the work of one system: the factorisation
// (n^3/3 + n^2/2 + n/6, as potrf counts it) and the two triangular solves
// (2*n^2*nrhs). parallel.For weighs a matrix by it, and the benchmarks
// report GFLOP/s against it.
func flopsPerMatrix(n, nrhs int) float64 {
	f := float64(n)
	return f*f*f/3 + f*f/2 + f/6 + 2*f*f*float64(nrhs)
}
