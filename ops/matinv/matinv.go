package matinv

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condopt"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/invkit"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gecon"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "matinv"

// keyN is the order's position in the key.
const keyN = 0

// makeKey builds the call's key in the order of the declared key names.
func makeKey(n, count int) sel.Key {
	return sel.MakeKey(sel.Int(n), sel.Int(count))
}

// flopsPerMatrix is the cost of one inverse, 2n^3 (LAPACK's counts for
// xGETRF and xGETRI, 2n^3/3 and 4n^3/3): what the workers' split weighs a
// matrix by and what the benchmarks report GFLOP/s against, whichever
// kernel runs.
func flopsPerMatrix(n int) float64 {
	f := float64(n)
	return 2 * f * f * f
}

// check validates the arguments of Matinv and BufferSize.
func check[T batchlas.Float](a, x batchlas.Batch[T]) error {
	if err := a.Check(opName, "a", false); err != nil {
		return err
	}
	if err := x.Check(opName, "x", true); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(opName, "a", "a is %dx%d; only a square matrix has an inverse", a.Rows, a.Cols)
	case x.Rows != a.Rows || x.Cols != a.Cols:
		return opkit.Argf(opName, "x", "x is %dx%d but a is %dx%d; x holds one n x n inverse per matrix of a", x.Rows, x.Cols, a.Rows, a.Cols)
	case x.Count != a.Count:
		return opkit.Argf(opName, "x", "x.Count %d != a.Count %d: give one output matrix per matrix of a", x.Count, a.Count)
	}
	return opkit.CheckDisjoint(opName, "x", x, "a", a)
}

// Matinv writes the inverse of every n x n matrix A_i into X_i, out of
// place (column-major; cuBLAS calls the job matinvBatched): A_i is
// factored with partial pivoting as getrf factors it and inverted from
// that factor, and a is only read, so it may be a view or a
// batchlas.Broadcast. x is written: it may not be a broadcast nor share
// an element with a, nor may the part of ws a kernel uses share one with
// either. ws is the workspace: nil allocates it, otherwise it needs
// BufferSize elements.
//
// A matrix whose factor has a zero or NaN pivot (getrf's info > 0: the
// first j, 1-based, with !(|U(j-1, j-1)| > 0)) has no inverse: its X_i is
// set to NaN everywhere, every other matrix is inverted, and the call
// returns a *batchlas.NumericalError from matinv listing the failures
// with that info, the same whichever kernel runs. An infinity in A_i
// propagates by IEEE arithmetic (usually to a NaN pivot).
//
// With batchlas.WithConditionCheck in ctx, matinv also computes the
// exact reciprocal condition number rcond_i = 1/(||A_i||_1 ||X_i||_1)
// from the inverse it wrote (no estimate is needed: the inverse is at
// hand); a matrix whose rcond_i is below the threshold (n*eps by
// default) or NaN keeps its X_i and is listed with info n+1, as LAPACK's
// xGESVX reports it. The check allocates its norms and runs to its end
// once the inverses are written, whatever ctx says. Without it,
// "singular" means an exactly zero or NaN pivot only.
//
// A call with no matrix or n == 0 runs no kernel and makes no decision,
// so the pin is not read: a bad pin is no error there. A nil ctx is
// context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over X; its Failed field lists the failures among the completed
// matrices. lanes inverts each group of matrices on one worker from start
// to end: X_0 .. X_{Completed-1} are done and every later X_i untouched
// (Touched == Completed). chain copies every A_i into X first and runs
// getrf and getri over the whole batch: X_0 .. X_{Completed-1} are done
// (none while it was copying or factoring), and X_i from Touched on are
// untouched (Touched == Count once the copy is done).
func Matinv[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(a, x); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	n := a.Rows
	cond, bad := condopt.Start[T](ctx, n, a.Count)
	if bad != "" {
		return opkit.Argf(opName, "ctx", "%s", bad)
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(n, a.Count)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	clean := false // the kernel saw every info 0
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, a, x, ws, info, &clean)
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
	if cond != nil {
		if err := finishConditionCheck(ctx, cond, a, x, info); err != nil {
			return err
		}
	} else if clean {
		return nil // at n = 3 the pass over the infos took a tenth of the call
	}
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// launch runs kernel c, writing each matrix's info, and sets clean when
// the kernel knows every info to be 0 (lanes does; chain leaves it to
// the infos). It refuses exactly what can_run refuses (R3), and a
// workspace shorter than c needs or sharing an element with a or x.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, a, x batchlas.Batch[T], ws []T, info []int32, clean *bool) error {
	n := a.Rows
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "route", "kernel %s cannot invert n=%d on device %s; pin another kernel or unset the pin", c, n, dev.Key)
	}
	if ws != nil {
		need, err := bufferSize(ctx, c, x)
		if err != nil {
			return err
		}
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
				need, err := bufferSize(ctx, c, x)
				if err != nil {
					return -1 // cannot size it: fits no worker count
				}
				return need
			})
		}
		ws = ws[:need]
		if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
			return err
		}
		if err := opkit.CheckWorkspace(opName, ws, "x", x); err != nil {
			return err
		}
	}
	switch c.Family() {
	case lanesFamily:
		var err error
		*clean, err = launchLanes(ctx, a, x, ws, info)
		return err
	case chain:
		return launchChain(ctx, a, x, ws, info)
	}
	return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to matinv.go)", opName, c)
}

// BufferSize returns the workspace, in elements, that Matinv needs for
// this call: it asks the selection core the same question Matinv asks,
// so the size fits the kernel that will run (for chain, the larger of
// what getrf and getri need under the same context), and for the workers
// a call with ctx may use (batchlas.WithParallelism). It refuses the
// arguments Matinv refuses. It is 0 for an empty batch or order 0, with
// no decision (the pin is not read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a, x batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(a, x); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(a.Rows, a.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, x)
}

// bufferSize is the workspace kernel c needs for a call with ctx writing
// x.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, x batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](x.Rows), nil
	case chain:
		return chainBufferSize(ctx, x)
	}
	return 0, nil
}

// finishConditionCheck takes ||A_i||_1 and gives info n+1 to the
// inverted matrices whose exact rcond is below the threshold or NaN
// (invkit.FinishCheck). It runs to its end whatever ctx says.
func finishConditionCheck[T batchlas.Float](ctx context.Context, c *condopt.Check[T], a, x batchlas.Batch[T], info []int32) error {
	if err := gecon.Norm(context.WithoutCancel(ctx), batchlas.OneNorm, a, c.Anorm); err != nil {
		return err
	}
	return invkit.FinishCheck(ctx, c, x, info)
}
