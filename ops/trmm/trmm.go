package trmm

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "trmm"

// problem is one validated call, shared by every family.
type problem[T batchlas.Float] struct {
	side  batchlas.Side
	uplo  batchlas.Uplo
	ta    batchlas.Transpose
	diag  batchlas.Diag
	m, n  int // B is m x n
	t, r  int // the triangle's order, and B's other dimension
	alpha T
	a, b  batchlas.Batch[T]
}

// check validates the arguments of Trmm and BufferSize.
func check[T batchlas.Float](side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, a, b batchlas.Batch[T]) (problem[T], error) {
	if err := side.Check(opName); err != nil {
		return problem[T]{}, err
	}
	if err := uplo.Check(opName); err != nil {
		return problem[T]{}, err
	}
	if err := ta.Check(opName, "ta"); err != nil {
		return problem[T]{}, err
	}
	if err := diag.Check(opName); err != nil {
		return problem[T]{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem[T]{}, err
	}
	if err := b.Check(opName, "b", true); err != nil {
		return problem[T]{}, err
	}
	p := problem[T]{side: side, uplo: uplo, ta: ta, diag: diag, m: b.Rows, n: b.Cols, t: b.Rows, r: b.Cols, a: a, b: b}
	if side == batchlas.Right {
		p.t, p.r = b.Cols, b.Rows
	}
	switch {
	case a.Rows != a.Cols:
		return problem[T]{}, opkit.Argf(opName, "a", "a is %dx%d; the triangular matrix must be square", a.Rows, a.Cols)
	case a.Rows != p.t && side == batchlas.Left:
		return problem[T]{}, opkit.Argf(opName, "a", "a is %dx%d but b has %d rows; side Left needs a of order m = b.Rows", a.Rows, a.Cols, b.Rows)
	case a.Rows != p.t:
		return problem[T]{}, opkit.Argf(opName, "a", "a is %dx%d but b has %d columns; side Right needs a of order n = b.Cols", a.Rows, a.Cols, b.Cols)
	case a.Count != b.Count:
		return problem[T]{}, opkit.Argf(opName, "a", "a.Count %d != b.Count %d: give one a per matrix of b, or batchlas.Broadcast(a, %d) to use one a for all", a.Count, b.Count, b.Count)
	}
	if err := opkit.CheckDisjoint(opName, "b", b, "a", a); err != nil {
		return problem[T]{}, err
	}
	return p, nil
}

// Trmm computes B_i := alpha*op(A_i)*B_i (side Left) or alpha*B_i*op(A_i)
// (side Right) for every i (BLAS xTRMM, batched, column-major): A_i is
// triangular (uplo), with a unit or non-unit diagonal (diag); only its
// uplo triangle is read, and its diagonal only when diag is NonUnit. op(A)
// is A for ta NoTrans and A^T for Trans. Each entry of B_i is alpha times
// the sum of the triangle's products with B_i's entries, as in BLAS,
// whichever kernel runs: a B_i that holds an Inf or NaN is computed from
// the triangle alone (docs/guide.md, the non-finite rule).
//
// b is m x n and written; a is m x m (Left) or n x n (Right), with as
// many matrices as b, or a broadcast of one (batchlas.Broadcast). As in
// BLAS, alpha == 0 sets B to zero without reading A or B, with no kernel
// to choose. b may not share an element with a (batchlas.Overlap:
// elements, not address ranges), nor may the part of ws a kernel uses
// share one with either. ws is the workspace: nil allocates it, otherwise
// it needs BufferSize elements.
//
// A call with nothing to compute (no matrix, m == 0 or n == 0) reads
// neither a nor b and makes no decision, so the pin is not read: a bad
// pin is no error there. A nil ctx is context.Background().
//
// A call whose ctx is cancelled or past its deadline returns a
// *batchlas.InterruptedError wrapping ctx.Err(): every kernel computes
// each B_i on one worker from start to end, so B_0 .. B_{Completed-1}
// are done and every later B_i is untouched (Touched == Completed).
func Trmm[T batchlas.Float](ctx context.Context, side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, alpha T, a, b batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := check(side, uplo, ta, diag, a, b)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	p.alpha = alpha
	if b.Empty() {
		return nil
	}
	if alpha == 0 {
		return opkit.Interrupted(opName, runJob(ctx, runZero, p, nil, 0))
	}
	dev := opkit.DeviceFrom(ctx)
	key := p.key()
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, ch sel.Choice) error {
		if !canRun(ch, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d on %s; pin another kernel or unset the pin", ch, p.m, p.n, dev.Key)
		}
		need, err := bufferSize(ctx, ch, p, ws)
		if err != nil {
			return err
		}
		switch {
		case ws == nil:
			ws = make([]T, need)
		case len(ws) < need:
			return opkit.WorkspaceShort(ctx, opName, ch.String(), len(ws), need, func(ctx context.Context) int {
				n, _ := bufferSize(ctx, ch, p, nil)
				return n
			})
		default:
			ws = ws[:need]
			if err := opkit.CheckWorkspace(opName, ws, "a", a); err != nil {
				return err
			}
			if err := opkit.CheckWorkspace(opName, ws, "b", b); err != nil {
				return err
			}
		}
		switch ch.Family() {
		case tile:
			return runJob(ctx, runTile, p, ws, tileSlotOf(p, dev))
		case viaGemm:
			return runGemm(ctx, p, ws)
		case swapped:
			return runJob(ctx, runSwapped, p, ws, swappedSlot(p, dev))
		case vendor:
			return runJob(ctx, runVendor, p, nil, 0)
		}
		return fmt.Errorf("%s: choice %s has no launch (a family was added to choice.go but not to trmm.go)", opName, ch)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the workspace, in elements, that Trmm needs for this
// call: it asks the selection core the same question Trmm asks, so the
// size fits the kernel that will run, and for the workers a call with ctx
// may use (batchlas.WithParallelism). It refuses the arguments Trmm
// refuses. It is 0 for a call with nothing to compute, with no decision
// (the pin is not read); alpha is not an argument, so a call with
// alpha = 0, which needs none, is sized as any other. A nil ctx is
// context.Background().
func BufferSize[T batchlas.Float](ctx context.Context, side batchlas.Side, uplo batchlas.Uplo, ta batchlas.Transpose, diag batchlas.Diag, a, b batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	p, err := check(side, uplo, ta, diag, a, b)
	if err != nil {
		return 0, err
	}
	if b.Empty() {
		return 0, nil
	}
	ch, err := Op.Pick(ctx, opkit.DTypeOf[T](), p.key(), opkit.DeviceFrom(ctx))
	if err != nil {
		return 0, err
	}
	return bufferSize(ctx, ch, &p, nil)
}

// bufferSize is the workspace of choice c for a call with ctx: one slot
// per worker for tile, the copies and the gemm op's workspace for gemm
// (gemmWorkspace, which may use ws's head to ask gemm), none for vendor.
func bufferSize[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem[T], ws []T) (int, error) {
	switch c.Family() {
	case tile:
		return parallel.Workers(ctx) * parallel.Pad(tileSlotOf(p, opkit.DeviceFrom(ctx))), nil
	case viaGemm:
		return gemmWorkspace(ctx, p, ws)
	case swapped:
		return parallel.Workers(ctx) * parallel.Pad(swappedSlot(p, opkit.DeviceFrom(ctx))), nil
	}
	return 0, nil
}

// key is the selection key of the call, in the order of keyNames.
func (p *problem[T]) key() sel.Key {
	return sel.MakeKey(sel.Str(p.side.String()), sel.Str(p.uplo.String()), sel.Str(p.ta.String()), sel.Str(p.diag.String()),
		sel.Int(p.m), sel.Int(p.n), sel.Int(p.b.Count))
}

// flopsPerMatrix is the cost of one product, t*t*r (BLAS's count for
// xTRMM: half of a full t x t times t x r product).
func flopsPerMatrix(t, r int) float64 {
	return float64(t) * float64(t) * float64(r)
}
