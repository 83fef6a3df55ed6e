package getrs

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "getrs"

// problem is one validated call, shared by every family.
type problem struct {
	trans   batchlas.Transpose
	n, nrhs int // A is n x n, B is n x nrhs
}

// Key positions, in the order of the declared key names.
const (
	keyTrans = iota
	keyN
	keyNRHS
	keyBatch
)

// key is the selection key of the call, in the order of keyNames.
func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(sel.Str(p.trans.String()), sel.Int(p.n), sel.Int(p.nrhs), sel.Int(count))
}

// check validates the arguments of Getrs and BufferSize: everything but
// the values of the pivots (see checkPivots).
func check[T batchlas.Float](trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) (problem, error) {
	if err := trans.Check(opName, "trans"); err != nil {
		return problem{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem{}, err
	}
	if err := ipiv.Check(opName, "ipiv", false); err != nil {
		return problem{}, err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return problem{}, err
	}
	switch {
	case a.Rows != a.Cols:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d; an LU factor is square", a.Rows, a.Cols)
	case a.Rows != b.Rows:
		return problem{}, opkit.Argf(opName, "b", "b has %d rows but a is %dx%d; b needs one row per row of a", b.Rows, a.Rows, a.Cols)
	case a.Count != b.Count:
		return problem{}, opkit.Argf(opName, "a", "a.Count %d != b.Count %d: give one factor per matrix of b, or batchlas.Broadcast(a, %d) to use one factor for all", a.Count, b.Count, b.Count)
	case ipiv.Count != b.Count:
		return problem{}, opkit.Argf(opName, "ipiv", "ipiv.Count %d != b.Count %d: give one pivot vector per matrix of b, or batchlas.BroadcastVectors(ipiv, %d) to use one for all", ipiv.Count, b.Count, b.Count)
	case ipiv.Len < a.Rows:
		return problem{}, opkit.Argf(opName, "ipiv", "ipiv.Len %d < n %d: each pivot vector holds one row interchange per column of the factor", ipiv.Len, a.Rows)
	}
	if err := opkit.CheckDisjoint(opName, "b", b, "a", a); err != nil {
		return problem{}, err
	}
	return problem{trans: trans, n: a.Rows, nrhs: b.Cols}, nil
}

// checkPivots returns an *ArgError naming ipiv, the matrix and the position
// of the first pivot outside [j, n) (pivot j of a vector must name row j
// or a row below it, as getrf writes them), or nil. A broadcast is checked
// once. Every kernel indexes B's rows with the pivots unchecked, so this
// runs before any of them, whatever the choice: a bad pivot is the same
// error from every candidate, and nothing has been written when it is
// reported. It reads count*n int32s, against count*n*n factor elements
// the solve reads.
func checkPivots(ipiv batchlas.Vectors[int32], n, count int) error {
	stored := count
	if ipiv.Stride == 0 {
		stored = min(count, 1)
	}
	for i := 0; i < stored; i++ {
		v := ipiv.Data[i*ipiv.Stride : i*ipiv.Stride+n]
		for j, p := range v {
			if int(p) < j || int(p) >= n {
				whose := fmt.Sprintf("matrix %d", i)
				if ipiv.Stride == 0 && count > 1 {
					whose = "every matrix (ipiv is a broadcast)"
				}
				return opkit.Argf(opName, "ipiv", "ipiv.At(%d, %d) = %d: pivot %d of %s must be in [%d, %d) (row %d is interchanged with itself or a row below it, as getrf writes them)", i, j, p, j, whose, j, n, j)
			}
		}
	}
	return nil
}

// Getrs solves op(A_i)*X_i = B_i for every i with the LU factor of A_i
// that getrf computed: a holds the factors (A_i = P_i*L_i*U_i, L_i unit
// lower, U_i upper, in place as getrf leaves them) and ipiv their 0-based
// pivots; op(A) is A for trans NoTrans and A^T for Trans. B_i (n x nrhs,
// any number of right-hand sides) is overwritten with X_i.
//
// a and ipiv are only read: they may be broadcasts (batchlas.Broadcast,
// batchlas.BroadcastVectors) to solve many B_i with one factor. ipiv.Len
// must be at least n; only the first n entries of each vector are read.
// b is written and may not share an element with a (batchlas.Overlap:
// elements, not address ranges), nor may the part of ws a kernel uses
// share one with a or b. ws is the workspace: nil allocates it, otherwise
// it needs BufferSize elements.
//
// Every pivot is checked before anything is written: ipiv.At(i, j) must be
// in [j, n). One that is not is an *ArgError on ipiv naming the matrix and
// the position; the call writes nothing and makes no decision.
//
// A zero (or NaN) on the diagonal of U_i, a singular factor, is not
// reported: X_i gets Inf or NaN by IEEE arithmetic, as LAPACK's getrs
// gives. gesv, which factors too, reports singular matrices and leaves
// their B_i alone.
//
// A call with nothing to solve (no matrix, n == 0 or nrhs == 0) reads
// neither a nor ipiv and makes no decision, so the pin is not read: a bad
// pin is no error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of B. permatrix, vector and vendor handle each B_i on one
// worker from start to end: B_0 .. B_{Completed-1} are solved, every later
// B_i is untouched (Touched == Completed). nested takes the whole batch
// through three passes (interchanges, then the solve with L, then with U;
// for Trans the solve with U^T, with L^T, then the interchanges): an
// interruption in the first pass leaves the matrices it reached partly
// written (Completed 0) and the rest untouched; one in the last pass
// completes the matrices that pass finished, the rest possibly partly
// written; one in between completes none and may have written all.
func Getrs[T batchlas.Float](ctx context.Context, trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(trans, a, ipiv, b)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	if b.Empty() {
		return nil
	}
	if err := checkPivots(ipiv, p.n, b.Count); err != nil {
		return err
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(b.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run n=%d nrhs=%d on %s; pin another kernel or unset the pin", c, p.n, p.nrhs, dev.Key)
		}
		if ws != nil {
			need, err := bufferSize(ctx, c, p, a, b)
			if err != nil {
				return err
			}
			if len(ws) < need {
				return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
					n, err := bufferSize(ctx, c, p, a, b)
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
		case permatrix:
			return launchPerMatrix(ctx, p, a, ipiv, b)
		case vector:
			if ws == nil {
				need, err := bufferSize(ctx, c, p, a, b)
				if err != nil {
					return err
				}
				ws = make([]T, need)
			}
			return launchVector(ctx, p, a, ipiv, b, ws)
		case nested:
			return launchNested(ctx, p, a, ipiv, b, ws)
		case vendor:
			return launchVendor(ctx, p, a, ipiv, b)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to getrs.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Getrs needs for
// these arguments, for the kernel the same call would choose: with
// the same context (pins, device, the worker cap of
// batchlas.WithParallelism) and shapes. A nil ctx is context.Background().
//
// It refuses the operands Getrs refuses, overlap included, but it does not
// read the pivots' values, so a workspace can be sized before getrf has
// written them. For a call with nothing to solve it is 0, with no decision
// (the pin is not read), as Getrs runs no kernel.
func BufferSize[T batchlas.Float](ctx context.Context, trans batchlas.Transpose, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(trans, a, ipiv, b)
	if err != nil {
		return 0, err
	}
	p := &pv
	if b.Empty() {
		return 0, nil
	}
	c, err := Op.Pick(ctx, opkit.DTypeOf[T](), p.key(b.Count), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, c, p, a, b)
}

// bufferSize is the workspace of choice c: nested hands its nested trsm
// calls the larger of their two workspaces (one after the other, so they
// share it); vector packs the factor per worker, for the workers a call
// with ctx may use; permatrix and vendor need none.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem, a, b batchlas.Batch[T]) (int, error) {
	switch c.Family() {
	case nested:
		return nestedSize(ctx, p, a, b)
	case vector:
		return parallel.Workers(ctx) * vectorWorkSize[T](p), nil
	}
	return 0, nil
}

// canRun is getrs's correctness gate (R3). The native kernels serve every
// shape; vendor needs gonum's BLAS in the build.
func canRun(c sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case permatrix, vector, nested:
		return true
	case vendor:
		return d.Has("vendor:blas")
	}
	return false
}

// flopsPerMatrix is the cost of one solve, 2*n^2*nrhs flops (two
// triangular solves of n^2*nrhs each): what parallel.For weighs a matrix
// by and what the benchmarks report GFLOP/s against.
func flopsPerMatrix(p *problem) float64 {
	n := float64(p.n)
	return 2 * n * n * float64(p.nrhs)
}
