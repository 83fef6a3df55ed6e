package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/infobuf"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "getrf"

// Getrf computes the LU factorisation with partial pivoting of every
// square matrix of a, in place: A_i = P_i * L_i * U_i, L_i unit lower
// triangular (its unit diagonal not stored) in the strict lower triangle,
// U_i upper triangular in the upper triangle, as LAPACK's getrf leaves
// them. Padding (LD > n, gaps between matrices) is left untouched.
//
// ipiv receives the row interchanges, 0-based: for j = 0 .. n-1 in order,
// row j of A_i was interchanged with row ipiv.At(i, j) (>= j). ipiv.Count
// must equal a.Count and ipiv.Len be at least n; only the first n entries
// of each vector are written. a and ipiv are written, so neither may be a
// broadcast of more than one matrix.
//
// ws is workspace of at least BufferSize elements, none of them shared
// with a (an *ArgError on ws); nil means the call allocates what it needs.
//
// A singular matrix does not stop the batch: its factorisation is
// completed under the rules of the package documentation, every other
// matrix is factored normally, and the call returns a
// *batchlas.NumericalError listing the failed matrices with their info:
// the first j (1-based, as LAPACK) with !(|U_i(j-1, j-1)| > 0), a zero or
// NaN pivot. Which pivot is chosen, and what happens at a zero or NaN
// one, is the same for every kernel (see the package documentation).
//
// A nil ctx is context.Background(). An empty batch (no matrix, or order
// 0) runs no kernel and makes no decision, so the pin is not read: a bad
// pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of a (and, alike, the vectors of ipiv); its Failed
// field lists the failures among the completed matrices, with their info.
// Every kernel but batched on an order above its nb factors each matrix on
// one worker from start to end: A_0 .. A_{Completed-1} are factored, every
// later A_i is untouched (Touched == Completed). batched on an order above
// its nb takes every matrix through each panel step in turn: an
// interruption in the first step's panels leaves the matrices it reached
// partly written and the rest untouched; one in the last step's panels
// completes the matrices it reached and may have written all; one anywhere
// else completes none and may have written all.
func Getrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(a, ipiv); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(a)
	buf := infobuf.Get(a.Count)
	defer infobuf.Put(buf)
	info := *buf
	err := Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		return launch(ctx, c, key, dev, a, ipiv, ws, info)
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
	// InfoError copies the failures out, so the buffer can go back.
	return opkit.InfoError(opName, info)
}

// launch runs kernel c on a, writing each matrix's pivots and info. It
// refuses exactly what can_run refuses (R3), and a workspace shorter than c
// needs.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "a", "kernel %s cannot factor n=%d on device %s; pin another kernel or unset the pin", c, a.Rows, dev.Key)
	}
	need, err := bufferSize(ctx, c, a)
	if err != nil {
		return err
	}
	if ws != nil {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
				n, err := bufferSize(ctx, c, a)
				if err != nil {
					return -1
				}
				return n
			})
		}
		if err := opkit.CheckWorkspace(opName, ws[:need], "a", a); err != nil {
			return err
		}
	}
	switch c.Family() {
	case tinyFamily:
		return tinyGetrf(ctx, a, ipiv, info)
	case unblockedFamily:
		return unblockedGetrf(ctx, a, ipiv, info)
	case recursiveFamily:
		return recursiveGetrf(ctx, a, ipiv, info)
	case batchedFamily:
		return batchedGetrf(ctx, a, ipiv, c.Field("nb"), ws, info)
	case lanesFamily:
		return lanesGetrf(ctx, a, ipiv, ws, info)
	case vendorFamily:
		return vendorGetrf(ctx, a, ipiv, ws, info)
	}
	return opkit.Argf(opName, "a", "kernel %s is not a getrf family", c)
}

// BufferSize returns the workspace, in elements, that Getrf needs for this
// call: it asks the selection core the same question Getrf asks, so
// the size fits the kernel that will run, and for the workers a call with
// ctx may use (batchlas.WithParallelism). It refuses the arguments Getrf
// refuses. It is 0 for an empty batch, with no decision (the pin is not
// read). A nil ctx is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(a, ipiv); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(a), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, a)
}

// check validates the arguments of a call.
func check[T batchlas.Float](a batchlas.Batch[T], ipiv batchlas.Vectors[int32]) error {
	if err := a.Check(opName, "a", true); err != nil {
		return err
	}
	if a.Rows != a.Cols {
		return opkit.Argf(opName, "a", "a is %dx%d; getrf factors square matrices (rows == cols)", a.Rows, a.Cols)
	}
	if err := ipiv.Check(opName, "ipiv", true); err != nil {
		return err
	}
	switch {
	case ipiv.Count != a.Count:
		return opkit.Argf(opName, "ipiv", "ipiv.Count %d != a.Count %d: give one pivot vector per matrix", ipiv.Count, a.Count)
	case ipiv.Len < a.Rows:
		return opkit.Argf(opName, "ipiv", "ipiv.Len %d < n %d: each pivot vector holds one row interchange per column", ipiv.Len, a.Rows)
	}
	return nil
}

// makeKey builds the call's key in the order of the declared key names:
// n:log:4 batch:log.
func makeKey[T batchlas.Float](a batchlas.Batch[T]) sel.Key {
	return sel.MakeKey(sel.Int(a.Rows), sel.Int(a.Count))
}

// Key positions, in the order of the declared key names.
const (
	keyN = iota
	keyBatch
)

// twin is getrf's OpSpec.Twin: recursive on an order up to recursiveLeaf,
// and batched on an order up to its nb, run the unblocked kernel's code.
func twin(c sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	n := k.Int(keyN)
	switch c.Family() {
	case recursiveFamily:
		if n <= recursiveLeaf {
			return unblockedFamily.Name
		}
	case batchedFamily:
		if n <= c.Field("nb") {
			return unblockedFamily.Name
		}
	}
	return ""
}

// canRun is getrf's correctness gate (R3): the tiny kernel's stack array
// holds n <= tinyMax; lanes takes n <= lanesMax; batched needs a panel width of at least one column;
// the vendor kernel needs gonum's LAPACK in the build. Every other kernel
// factors any order.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case tinyFamily:
		return k.Int(keyN) <= tinyMax
	case lanesFamily:
		return k.Int(keyN) <= lanesMax
	case batchedFamily:
		return c.Field("nb") >= 1
	case vendorFamily:
		return d.Has("vendor:lapack")
	}
	return true
}

// bufferSize is the workspace kernel c needs for a: the vendor kernel
// factors a row-major transposed copy of each matrix (gonum is row-major),
// one n x n scratch per worker a call with ctx may use; lanes a group of
// matrices per worker. The native kernels
// work in place (tiny on the stack) and need none, but batched needs the
// largest workspace of its nested trsm and gemm calls (batchedNestedSize),
// which get the call's ws. The error is a nested op's (a bad trsm or gemm
// pin).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, a batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case vendorFamily:
		return parallel.Workers(ctx) * vendorScratch(a.Rows), nil
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](a.Rows), nil
	case batchedFamily:
		return batchedNestedSize(ctx, a, c.Field("nb"))
	}
	return 0, nil
}

// vendorScratch is the per-worker scratch of the vendor kernel.
func vendorScratch(n int) int { return parallel.Pad(n * n) }

// flopsPerMatrix is the cost of one factorisation, 2n^3/3 flops (LAPACK's
// count, near enough): what parallel.For weighs a matrix by and what the
// benchmarks report GFLOP/s against.
func flopsPerMatrix(n int) float64 {
	f := float64(n)
	return 2 * f * f * f / 3
}
