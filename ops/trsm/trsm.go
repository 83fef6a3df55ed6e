package trsm

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "trsm"

// problem is one validated call, shared by every family: the enums and the
// order t of the triangle (m for Left, n for Right).
type problem struct {
	side batchlas.Side
	uplo batchlas.Uplo
	ta   batchlas.Transpose
	diag batchlas.Diag
	m, n int // B is m x n
	t    int // order of A
	r    int // the other dimension of B
}

// Key positions, in the order of the declared key names.
const (
	keySide = iota
	keyUplo
	keyTA
	keyDiag
	keyM
	keyN
	keyBatch
)

// key is the selection key of the call, in the order of keyNames.
func (p *problem) key(count int) sel.Key {
	return sel.MakeKey(
		sel.Str(p.side.String()), sel.Str(p.uplo.String()), sel.Str(p.ta.String()), sel.Str(p.diag.String()),
		sel.Int(p.m), sel.Int(p.n), sel.Int(count))
}

// check validates the arguments of Trsm and BufferSize.
func check[T batchlas.Float](side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, a, b batchlas.Batch[T]) (problem, error) {
	if err := side.Check(opName); err != nil {
		return problem{}, err
	}
	if err := uplo.Check(opName); err != nil {
		return problem{}, err
	}
	if err := ta.Check(opName, "ta"); err != nil {
		return problem{}, err
	}
	if err := diag.Check(opName); err != nil {
		return problem{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem{}, err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return problem{}, err
	}
	p := problem{side: side, uplo: uplo, ta: ta, diag: diag, m: b.Rows, n: b.Cols, t: b.Rows, r: b.Cols}
	if side == batchlas.Right {
		p.t, p.r = b.Cols, b.Rows
	}
	switch {
	case a.Rows != a.Cols:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d; the triangular matrix must be square", a.Rows, a.Cols)
	case a.Rows != p.t && side == batchlas.Left:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d but b has %d rows; side Left needs a of order m = b.Rows", a.Rows, a.Cols, b.Rows)
	case a.Rows != p.t:
		return problem{}, opkit.Argf(opName, "a", "a is %dx%d but b has %d columns; side Right needs a of order n = b.Cols", a.Rows, a.Cols, b.Cols)
	case a.Count != b.Count:
		return problem{}, opkit.Argf(opName, "a", "a.Count %d != b.Count %d: give one a per matrix of b, or batchlas.Broadcast(a, %d) to use one a for all", a.Count, b.Count, b.Count)
	}
	if err := opkit.CheckDisjoint(opName, "b", b, "a", a); err != nil {
		return problem{}, err
	}
	return p, nil
}

// Trsm solves op(A_i)*X = alpha*B_i (side Left) or X*op(A_i) = alpha*B_i
// (side Right) for every i, overwriting B_i with X. A_i is triangular
// (uplo), unit or non-unit diagonal (diag); only its uplo triangle is read,
// and its diagonal only when diag is NonUnit.
//
// b is m x n and written; a is m x m (Left) or n x n (Right), with as many
// matrices as b, or a broadcast of one (batchlas.Broadcast). ws is the workspace: nil
// allocates it, otherwise it needs BufferSize elements. As in BLAS, alpha
// == 0 sets B to zero without reading A or B. A zero on a non-unit
// diagonal gives Inf/NaN in X, per IEEE; it is not reported as an error.
// A nil ctx is context.Background().
//
// b may not share an element with a, nor the part of ws a kernel uses
// with either: that is an *ArgError on b (or ws), whatever alpha. Only
// elements count (batchlas.Overlap): A and B as disjoint views of one
// parent, [A; B] down the same columns, are fine.
//
// A call that runs no kernel (an empty B, or alpha == 0) makes no
// decision, so the pin is not read: a bad pin is no error there.
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(), which says how far it got
// over the matrices of B. The direct, vector and vendor kernels, blocked on a
// triangle of order at most its nb, and the alpha == 0 path (B = 0) handle
// each B_i on one worker from start to end: B_0 .. B_{Completed-1} are
// done, every later B_i is untouched (Touched == Completed). blocked on a larger
// triangle solves the batch in chunks, each through several passes over
// the whole chunk: the chunks before the interrupted one are solved
// (Completed is the interrupted chunk's start), the interrupted chunk may
// be partly written, and the chunks after it are untouched.
func Trsm[T batchlas.Float](ctx context.Context, side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, alpha T, a, b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(side, uplo, ta, diag, a, b)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	if b.Empty() {
		return nil
	}
	if alpha == 0 {
		// X = 0, as BLAS does, with no kernel to choose.
		return opkit.Interrupted(opName, zeroB(ctx, b))
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key(b.Count)
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, c sel.Choice) error {
		if !canRun(c, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d on %s", c, p.m, p.n, dev.Key)
		}
		need, err := bufferSize(ctx, c, p, a, b)
		if err != nil {
			return err
		}
		ws := ws // this decision's workspace: a retried candidate sizes its own
		switch {
		case ws == nil:
			// From the free list rather than make: a fresh buffer
			// each call costs its page faults and zeroing, as much as
			// the solve where the vector kernel copies a conflicting
			// triangle (order 512: 2 MiB a call).
			s, buf := simd.GetScratch[T](need)
			defer simd.PutScratch(s)
			ws = buf
		case len(ws) < need:
			return opkit.WorkspaceShort(ctx, opName, c.String(), len(ws), need, func(ctx context.Context) int {
				n, err := bufferSize(ctx, c, p, a, b)
				if err != nil {
					return -1
				}
				return n
			})
		default:
			if err := opkit.CheckWorkspace(opName, ws[:need], "a", a); err != nil {
				return err
			}
			if err := opkit.CheckWorkspace(opName, ws[:need], "b", b); err != nil {
				return err
			}
		}
		switch {
		case c.Is(direct):
			return launchDirect(ctx, p, alpha, a, b, ws)
		case c.Is(vector):
			return launchVector(ctx, p, alpha, a, b, ws)
		case c.Is(simdFamily):
			return launchSIMD(ctx, p, alpha, a, b)
		case c.Is(blocked):
			return launchBlocked(ctx, p, c.Field("nb"), alpha, a, b, ws)
		case c.Is(vendor):
			return launchVendor(ctx, p, alpha, a, b)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to trsm.go)", opName, c)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the number of workspace elements Trsm needs for these
// arguments, for the kernel the same call would choose: with the same
// context (pins, device, the worker cap of batchlas.WithParallelism) and
// shapes. A nil ctx is context.Background().
//
// It refuses the operands Trsm refuses, overlap included. For an empty B
// it is 0, with no decision (the pin is not read), as Trsm runs no kernel;
// it does not see alpha, so for alpha == 0 it decides and sizes as for any
// other alpha (a bad pin is an error).
func BufferSize[T batchlas.Float](ctx context.Context, side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, a, b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	pv, err := check(side, uplo, ta, diag, a, b)
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

// bufferSize is the workspace of choice c: a packed triangle (and for
// direct a column panel) per worker a call with ctx may use, for the
// substitution kernels (direct, vector, and the diagonal blocks of
// blocked), and for blocked the workspace of its gemm updates after it
// (blockedGemmSize); none for vendor and simd. Its error is a nested
// gemm's (a bad gemm pin).
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem, a, b batchlas.Batch[T]) (int, error) {
	switch {
	case c.Is(vector):
		return parallel.Workers(ctx) * vectorWorkSize[T](p, opkit.DeviceFrom(ctx), a.LD), nil
	case c.Is(direct):
		return parallel.Workers(ctx) * workSize(p.t), nil
	case c.Is(blocked):
		nb := c.Field("nb")
		g, err := blockedGemmSize(ctx, p, nb, a, b)
		return blockedOwnSize(ctx, p, nb) + g, err
	}
	return 0, nil
}

// canRun is trsm's correctness gate (R3). The native kernels serve every
// shape; vendor needs gonum's BLAS in the build.
func canRun(c sel.Choice, _ sel.Key, d *sel.Device) bool {
	switch {
	case c.Is(direct), c.Is(vector), c.Is(simdFamily):
		return true
	case c.Is(blocked):
		return c.Field("nb") >= 1
	case c.Is(vendor):
		return d.Has("vendor:blas")
	}
	return false
}
