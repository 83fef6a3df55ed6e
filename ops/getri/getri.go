package getri

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/infobuf"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/pivots"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "getri"

// check validates the arguments of Getri and BufferSize: everything but
// the values of the pivots (pivots.Check).
func check[T batchlas.Float](a batchlas.Batch[T], ipiv batchlas.Vectors[int32]) error {
	if err := a.Check(opName, "a", true); err != nil {
		return err
	}
	if err := ipiv.Check(opName, "ipiv", false); err != nil {
		return err
	}
	switch {
	case a.Rows != a.Cols:
		return opkit.Argf(opName, "a", "a is %dx%d; an LU factor is square", a.Rows, a.Cols)
	case ipiv.Count != a.Count:
		return opkit.Argf(opName, "ipiv", "ipiv.Count %d != a.Count %d: give one pivot vector per factor, or batchlas.BroadcastVectors(ipiv, %d) to use one for all", ipiv.Count, a.Count, a.Count)
	case ipiv.Len < a.Rows:
		return opkit.Argf(opName, "ipiv", "ipiv.Len %d < n %d: each pivot vector holds one row interchange per column of the factor", ipiv.Len, a.Rows)
	}
	return nil
}

// Getri overwrites every LU factor A_i with the inverse of the matrix it
// factors (LAPACK's xGETRI, batched, column-major): a holds the factors
// as getrf leaves them (A_i = P_i*L_i*U_i, L_i unit lower, U_i upper, in
// place) and ipiv getrf's 0-based pivots, which are only read (ipiv may
// be a batchlas.BroadcastVectors). ipiv.Len must be at least n; only the
// first n entries of each vector are read. a is written: it may not be a
// broadcast, nor may the part of ws a kernel uses share an element with
// it. ws is the workspace: nil allocates it, otherwise it needs
// BufferSize elements.
//
// Every pivot is checked before anything is written: ipiv.At(i, j) must be
// in [j, n). One that is not is an *ArgError on ipiv naming the matrix and
// the position; the call writes nothing and makes no decision.
//
// A factor whose U has a zero or a NaN on its diagonal has no inverse
// (the zero) or only a NaN one: it is a per-matrix failure, reported in a
// *batchlas.NumericalError with info j+1 for the first such diagonal
// entry j (LAPACK's code, 1-based), whichever kernel runs, and its A_i is
// left exactly as it was; every other matrix is inverted. An infinity
// elsewhere propagates by IEEE arithmetic.
//
// A call with nothing to invert (no matrix, or n == 0) reads neither a
// nor ipiv and makes no decision, so the pin is not read: a bad pin is
// no error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it
// got: every kernel inverts each matrix on one worker from start to end,
// so matrices 0 .. Completed-1 are inverted (or reported failed) and
// every later one is untouched (Touched == Completed); its Failed field
// lists the failures among the completed ones.
func Getri[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T) error {
	ctx = opkit.Context(ctx)
	if err := check(a, ipiv); err != nil {
		return err
	}
	if a.Empty() {
		return nil
	}
	n := a.Rows
	if err := pivots.Check(opName, ipiv, n, a.Count); err != nil {
		return err
	}
	dev := opkit.DeviceFrom(ctx)
	key := makeKey(n, a.Count)
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
	return opkit.InfoError(opName, info)
}

// launch runs kernel c, writing each matrix's info. It refuses exactly
// what can_run refuses (R3), and a workspace shorter than c needs or
// sharing an element with a.
func launch[T batchlas.Float](ctx context.Context, c sel.Choice, key sel.Key, dev *sel.Device, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	n := a.Rows
	if !canRun(c, key, dev) {
		return opkit.Argf(opName, "route", "kernel %s cannot invert n=%d on device %s; pin another kernel or unset the pin", c, n, dev.Key)
	}
	need := bufferSize[T](ctx, c, n)
	if ws == nil {
		ws = make([]T, need)
	} else {
		if len(ws) < need {
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int { return bufferSize[T](ctx, c, n) })
		}
		ws = ws[:need]
		if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
			return err
		}
	}
	switch c.Family() {
	case permatrix:
		return runJob(ctx, runPerMatrix, a, ipiv, ws, permatrixSlot[T](n), info)
	case lanesFamily:
		return lanesGetri(ctx, a, ipiv, ws, info)
	case vendor:
		return launchVendor(ctx, a, ipiv, ws, info)
	}
	return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to getri.go)", opName, c)
}

// BufferSize returns the workspace, in elements, that Getri needs for
// this call: it asks the selection core the same question Getri asks, so
// the size fits the kernel that will run, and for the workers a call with
// ctx may use (batchlas.WithParallelism). It refuses the arguments Getri
// refuses, but it does not read the pivots' values, so a workspace can be
// sized before getrf has written them. It is 0 for an empty batch or
// order 0, with no decision (the pin is not read). A nil ctx is
// context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32]) (int, error) {
	ctx = opkit.Context(ctx)
	if err := check(a, ipiv); err != nil {
		return 0, err
	}
	if a.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), makeKey(a.Rows, a.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize[T](ctx, c, a.Rows), nil
}

// bufferSize is the workspace kernel c needs for a call with ctx: one
// slot per worker.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, n int) int {
	switch c.Family() {
	case permatrix:
		return parallel.Workers(ctx) * permatrixSlot[T](n)
	case lanesFamily:
		return parallel.Workers(ctx) * lanesSlot[T](n)
	case vendor:
		return parallel.Workers(ctx) * vendorSlot(n)
	}
	return 0
}

// permatrixSlot is the permatrix kernel's per-worker scratch: the block
// of columns of L set aside at each step.
func permatrixSlot[T batchlas.Float](n int) int { return parallel.Pad(n * min(n, invBlock)) }

// makeKey builds the call's key in the order of the declared key names.
func makeKey(n, count int) sel.Key {
	return sel.MakeKey(sel.Int(n), sel.Int(count))
}

// keyN is the order's position in the key.
const keyN = 0

// flopsPerMatrix is the cost of one inverse from its factor, 4n^3/3
// (LAPACK's count for xGETRI): what parallel.Run weighs a matrix by and
// what the benchmarks report GFLOP/s against.
func flopsPerMatrix(n int) float64 {
	f := float64(n)
	return 4 * f * f * f / 3
}
