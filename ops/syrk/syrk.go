package syrk

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "syrk"

// problem is one validated call, shared by every family.
type problem[T batchlas.Float] struct {
	lower, trans bool
	n, k         int // C is n x n, op(A) n x k
	alpha, beta  T
	a, c         batchlas.Batch[T]
	// hintA and hintC are the bytes of A's and C's ranges the triangle
	// kernel hints for the next matrix (hintBytes, once a call; 0: none).
	hintA, hintC uintptr
}

// check validates the arguments of Syrk and BufferSize.
func check[T batchlas.Float](uplo batchlas.Uplo, trans batchlas.Transpose, a, c batchlas.Batch[T]) (problem[T], error) {
	if err := uplo.Check(opName); err != nil {
		return problem[T]{}, err
	}
	if err := trans.Check(opName, "trans"); err != nil {
		return problem[T]{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem[T]{}, err
	}
	if err := c.Check(opName, "c", true); err != nil {
		return problem[T]{}, err
	}
	n, k := a.Rows, a.Cols
	if trans == batchlas.Trans {
		n, k = k, n
	}
	switch {
	case c.Rows != c.Cols:
		return problem[T]{}, opkit.Argf(opName, "c", "c is %dx%d; it must be square (n x n)", c.Rows, c.Cols)
	case c.Rows != n:
		return problem[T]{}, opkit.Argf(opName, "a", "op(a) has %d rows, c is %dx%d: op(a) must be n x k with n = c.Rows (a is n x k for trans N, k x n for T)", n, c.Rows, c.Cols)
	case a.Count != c.Count:
		return problem[T]{}, opkit.Argf(opName, "a", "a.Count %d != c.Count %d: give a one matrix per C_i, or batchlas.Broadcast(a, %d) to use one a for all", a.Count, c.Count, c.Count)
	}
	if err := opkit.CheckDisjoint(opName, "c", c, "a", a); err != nil {
		return problem[T]{}, err
	}
	return problem[T]{lower: uplo == batchlas.Lower, trans: trans == batchlas.Trans, n: n, k: k, a: a, c: c}, nil
}

// Syrk computes C_i := alpha*op(A_i)*op(A_i)^T + beta*C_i on the uplo
// triangle of every C_i (BLAS xSYRK, batched, column-major): op(A) is A
// (n x k) for trans NoTrans, A^T (A k x n) for Trans, C_i is n x n. Only
// the uplo triangle of C_i, its diagonal included, is read and written:
// the other triangle is never touched and may hold anything.
//
// As in BLAS, beta = 0 does not read C (a NaN there does not propagate),
// and alpha = 0 or k = 0 does not read A: C's triangle is scaled by beta
// (set to zero for beta = 0) with no kernel to choose. a is only read and
// may be a batchlas.Broadcast; c is written and may not share an element
// with a (batchlas.Overlap: elements, not address ranges), nor may the
// part of ws a kernel uses share one with either. ws is the workspace:
// nil allocates it, otherwise it needs BufferSize elements.
//
// A call with nothing to compute (no matrix, or n == 0) reads neither a
// nor c and makes no decision, so the pin is not read: a bad pin is no
// error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel computes
// each C_i on one worker from start to end, so C_0 .. C_{Completed-1}
// are done and every later C_i is untouched (Touched == Completed).
func Syrk[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, trans batchlas.Transpose, alpha T, a batchlas.Batch[T], beta T, c batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(uplo, trans, a, c)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	p.alpha, p.beta = alpha, beta
	if c.Empty() {
		return nil
	}
	if p.k == 0 || alpha == 0 {
		// Nothing to multiply: C = beta*C on the triangle, as BLAS does,
		// with no kernel to choose.
		if beta == 1 {
			return nil
		}
		return opkit.Interrupted(opName, runJob(ctx, runScale, p, nil, 0))
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key()
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, ch sel.Choice) error {
		if !canRun(ch, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run n=%d k=%d on %s; pin another kernel or unset the pin", ch, p.n, p.k, dev.Key)
		}
		need := bufferSize(ctx, ch, p)
		switch {
		case ws == nil:
			ws = make([]T, need)
		case len(ws) < need:
			return opkit.WorkspaceShort(ctx, opName, ch.String(), len(ws), need, func(ctx context.Context) int { return bufferSize(ctx, ch, p) })
		default:
			ws = ws[:need]
			if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
				return err
			}
			if err := opkit.CheckWorkspace(opName, ws, "c", c); err != nil {
				return err
			}
		}
		switch ch.Family() {
		case tile:
			kernel := runTile
			if triRuns() {
				kernel = runTri
				p.hintA, p.hintC = hintBytes(p)
			}
			return runJob(ctx, kernel, p, ws, tileSlot(p.n, p.k, p.trans))
		case vendor:
			return runJob(ctx, runVendor, p, nil, 0)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to syrk.go)", opName, ch)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the workspace, in elements, that Syrk needs for this
// call: it asks the selection core the same question Syrk asks, so the
// size fits the kernel that will run, and for the workers a call with ctx
// may use (batchlas.WithParallelism). It refuses the arguments Syrk
// refuses. It is 0 where Syrk runs no kernel (no matrix, n == 0, k == 0),
// with no decision (the pin is not read); alpha is not an argument, so a
// call with alpha = 0, which needs none, is sized as any other. A nil ctx
// is context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, trans batchlas.Transpose, a, c batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	p, err := check(uplo, trans, a, c)
	if err != nil {
		return 0, err
	}
	if c.Empty() || p.k == 0 {
		return 0, nil
	}
	ch, err := Op.Pick(ctx, opkit.DTypeOf[T](), p.key(), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, ch, &p), nil
}

// bufferSize is the workspace of choice c for call p with ctx: one slot
// per worker for tile, none for vendor.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem[T]) int {
	if c.Family() == tile {
		return parallel.Workers(ctx) * parallel.Pad(tileSlot(p.n, p.k, p.trans))
	}
	return 0
}

// key is the selection key of the call, in the order of keyNames.
func (p *problem[T]) key() sel.Key {
	uplo, trans := "U", "N"
	if p.lower {
		uplo = "L"
	}
	if p.trans {
		trans = "T"
	}
	return sel.MakeKey(sel.Str(uplo), sel.Str(trans), sel.Int(p.n), sel.Int(p.k), sel.Int(p.c.Count))
}

// flopsPerMatrix is the cost of one update, n*(n+1)*k (BLAS's count for
// xSYRK: half of gemm's 2*n*n*k, with the diagonal): what parallel.Run
// weighs a matrix by and what the benchmarks report GFLOP/s against.
func flopsPerMatrix(n, k int) float64 {
	return float64(n) * float64(n+1) * float64(k)
}
