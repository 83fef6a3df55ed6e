package potrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/infobuf"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

// Potrf factors every symmetric positive definite matrix of a in place:
// A_i = L*L^T (Lower) or A_i = U^T*U (Upper). Only the uplo triangle is read
// and written; the other triangle and any padding are left untouched.
//
// a must be square and written (no broadcast). It is the only operand, read
// and written in place, so nothing can overlap it but the workspace. ws is
// workspace of at least BufferSize elements, none of them shared with a
// (an *ArgError on ws); nil means the call allocates what it needs.
//
// A matrix that is not positive definite (NaN included) does not stop the
// batch: every other matrix is still factored, and the call returns a
// *batchlas.NumericalError listing the failed matrices with LAPACK's info
// (the order of the leading minor that is not positive definite). The
// contents of a failed matrix's triangle are unspecified.
//
// A nil ctx is context.Background(). An empty batch (no matrix, or order
// 0) runs no kernel and makes no decision, so the pin is not read: a bad
// pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got;
// its Failed field lists the failures among the completed matrices, with
// their info. Every kernel but blocked's batch-wide path factors each
// matrix on one worker from start to end: A_0 .. A_{Completed-1} are
// factored, every later A_i is untouched (Touched == Completed). The
// batch-wide path (blocked on an order above its block size whose matrices
// do not fit in L2) takes every matrix through each block step in turn: an
// interruption in the first step leaves the matrices it reached partly
// written and the rest untouched; one in a later step completes none
// (except the matrices the last step's diagonal factorisation finished)
// and may have written all.
func Potrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T) error {
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
		return launch(ctx, c, key, dev, uplo, a, ws, info)
	})
	if ie, ok := err.(*batchlas.InterruptedError); ok {
		ie.Op = "potrf"
		// The completed matrices' info is final; InfoError copies it out.
		ie.Failed, _ = opkit.InfoError("potrf", info[:ie.Completed]).(*batchlas.NumericalError)
		return ie
	}
	if err != nil {
		return err
	}
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError("potrf", info)
}

// launch runs kernel c on a, writing each matrix's info. It refuses
// exactly what can_run refuses (R3), and a workspace shorter than c needs.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32) error {
	if !canRun(c, key, dev) {
		return opkit.Argf("potrf", "a", "kernel %s cannot factor n=%d on device %s; pin another kernel or unset the pin", c, a.Rows, dev.Key)
	}
	need, err := bufferSize(ctx, c, uplo, a, dev)
	if err != nil {
		return err
	}
	if ws != nil {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, "potrf", c.String(), len(ws), need, func(ctx context.Context) int {
				n, err := bufferSize(ctx, c, uplo, a, dev)
				if err != nil {
					return -1
				}
				return n
			})
		}
		if err := opkit.CheckWorkspace("potrf", ws[:need], "a", a); err != nil {
			return err
		}
	}
	switch c.Family() {
	case tinyFamily:
		return tinyPotrf(ctx, uplo, a, info)
	case unblockedFamily:
		return unblockedPotrf(ctx, uplo, a, ws, info)
	case lpanelFamily:
		return lpanelPotrf(ctx, uplo, a, c.Field("panel"), ws, info)
	case blockedFamily:
		return blockedPotrf(ctx, uplo, a, ws, info)
	case tiledFamily:
		return tiledPotrf(ctx, uplo, a, ws, info)
	case lanesFamily:
		return lanesPotrf(ctx, uplo, a, ws, info)
	case vendorFamily:
		return vendorPotrf(ctx, uplo, a, info)
	}
	return opkit.Argf("potrf", "a", "kernel %s is not a potrf family", c)
}

// BufferSize returns the workspace, in elements, that Potrf needs for this
// call: it asks the selection core the same question Potrf asks, so
// the size fits the kernel that will run, and for the workers a call with
// ctx may use (batchlas.WithParallelism). It is 0 for an empty batch,
// with no decision (the pin is not read). A nil ctx is
// context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(uplo, a); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	dev := opkit.DeviceFrom(ctx)
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(uplo, a), dev)
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, uplo, a, dev)
}

// check validates the arguments of a call.
func check[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T]) error {
	if err := uplo.Check("potrf"); err != nil {
		return err
	}
	if err := a.Check("potrf", "a", true); err != nil {
		return err
	}
	if a.Rows != a.Cols {
		return opkit.Argf("potrf", "a", "a is %dx%d; potrf factors square matrices (rows == cols)", a.Rows, a.Cols)
	}
	return nil
}

// makeKey builds the call's key in the order of the declared key names:
// uplo:exact n:log:4 batch:log.
func makeKey[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T]) sel.Key {
	u := "L"
	if uplo == batchlas.Upper {
		u = "U"
	}
	return sel.MakeKey(sel.Str(u), sel.Int(a.Rows), sel.Int(a.Count))
}

// Key positions, in the order of the declared key names.
const (
	keyUplo = iota
	keyN
	keyBatch
)

// twin is potrf's OpSpec.Twin: blocked hands an order up to unrollMax to
// the tiny kernel, and an order up to blockedNB or a matrix that fits in
// L2 to the unblocked one (blockedPath); lpanel with a single panel is
// unblocked (its one left-looking update is empty).
func twin(c sel.Choice, dt sel.DType, k sel.Key, d *sel.Device) string {
	n := k.Int(keyN)
	switch c.Family() {
	case blockedFamily:
		elemSize := 8
		if dt == sel.Float32 {
			elemSize = 4
		}
		switch blockedPathFor(n, elemSize, d) {
		case blockedByTiny:
			return tinyFamily.Name
		case blockedByMatrix:
			return unblockedFamily.Name
		}
	case lpanelFamily:
		if n <= c.Field("panel") {
			return unblockedFamily.Name
		}
	}
	return ""
}

// canRun is potrf's correctness gate (R3): the tiny kernel's stack array
// holds n <= 16; lanes takes n <= 32; lpanel takes panels of 1 to
// maxPanel columns (its stack buffer); the vendor kernel needs gonum's
// LAPACK in the build. Every other kernel factors any order.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case tinyFamily:
		return k.Int(keyN) <= tinyMax
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	case lpanelFamily:
		return c.Field("panel") >= 1 && c.Field("panel") <= maxPanel
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return true
}

// bufferSize is the workspace kernel c needs for a on device d: lanes a
// group of matrices per worker; the per-matrix kernels factor an Upper
// matrix through a transposed copy, and a Lower one whose columns conflict
// in cache (copiesLower) through a copy, one scratch of order n per worker
// a call with ctx may use (see perMatrix); tiled takes one such copy for all its
// workers; everything else works in place (tiny on the stack) and needs
// none. blocked needs the scratch only when it takes its per-matrix path;
// on its batch-wide path it needs the largest workspace of its nested trsm
// and gemm calls (blockedNestedSize), which get the call's ws. The error
// is a nested op's (a bad trsm or gemm pin).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, uplo batchlas.Uplo, a batchlas.Batch[T], d *sel.Device) (int, error) {
	switch c.Family() {
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](a.Rows), nil
	case tiledFamily:
		return tiledScratch[T](uplo, a.Rows), nil
	case blockedFamily:
		if blockedPath(a.Rows, a, d) == blockedByBatch {
			return blockedNestedSize(ctx, uplo, a)
		}
	}
	n := a.Rows
	if uplo != batchlas.Upper && !copiesLower[T](d, a.LD, n) {
		return 0, nil
	}
	perWorker := 0
	switch c.Family() {
	case unblockedFamily, lpanelFamily:
		perWorker = scratchSize[T](n)
	case blockedFamily:
		if blockedPath(n, a, d) == blockedByMatrix {
			perWorker = scratchSize[T](n)
		}
	}
	return parallel.Workers(ctx) * perWorker, nil
}

// flopsPerMatrix is the cost of one factorisation, n^3/3 + n^2/2 flops
// (LAPACK's count, near enough): what parallel.For weighs a matrix by and
// what the benchmarks report GFLOP/s against.
func flopsPerMatrix(n int) float64 {
	f := float64(n)
	return f*f*f/3 + f*f/2
}
