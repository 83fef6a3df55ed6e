package gemm

import (
	"context"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

const opName = "gemm"

// problem is one validated call: sizes, transposes and operands. Kernels
// take it by pointer so the launch switch passes one value.
type problem[T batchlas.Float] struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    T
	a, b, c        batchlas.Batch[T]
	// The caches of the device the call runs on (package cache): the simd
	// kernels size their panels and groups from them and copy an A whose
	// columns would fall into too few of their sets. Zero (no geometry:
	// no copies, the default sizes) until Gemm sets them.
	l1, l2 cache.Level
	// stream: simd's groups write C with streaming stores (simd.TileStream):
	// beta 0, one k slice, and a C bigger than the device's last-level
	// cache, so C would leave the caches before anyone reads it anyway.
	stream bool
}

// Gemm computes C_i = alpha*op(A_i)*op(B_i) + beta*C_i for every matrix i of
// the batch, op = N or T. C is m x n, op(A) is m x k and op(B) is k x n.
// a.Count and b.Count must equal c.Count; a and b may be broadcasts
// (batchlas.Broadcast: one matrix for every C_i); C is written (no
// broadcast, no overlap, no sharing storage with A or B).
// beta == 0 means C is not read; alpha == 0 means A and B are not read.
// ws is workspace of at least BufferSize elements, or nil to allocate.
// A nil ctx is context.Background().
//
// Sharing storage means sharing an element: C may not share one with A or
// B, nor any operand with the part of ws a kernel uses; that is an
// *ArgError on c (or ws), whatever alpha and beta. Only elements count
// (batchlas.Overlap): sub-matrix views of one parent that share none may
// interleave in memory, [A; C] down the same columns.
//
// A call that runs no kernel (an empty C, k == 0 or alpha == 0: C =
// beta*C or nothing, BLAS's quick returns) makes no decision, so the pin
// is not read: a bad pin is no error there.
//
// A call whose ctx is cancelled or past its deadline stops handing out
// matrices and returns a *batchlas.InterruptedError wrapping ctx.Err().
// C_0 .. C_{Completed-1} hold their results, every C_i from Touched on is
// untouched, and the call can be resumed on the sub-batch from Completed
// on. Every gemm kernel computes each C_i on one worker from start to end
// (Touched == Completed), except that the packed and simd kernels, on a
// batch with fewer matrices than workers, cut each big matrix's columns
// over the workers: the matrix they were on may then be partly written
// (Touched == Completed+1).
func Gemm[T batchlas.Float](ctx context.Context, ta, tb batchlas.Transpose, alpha T, a, b batchlas.Batch[T], beta T, c batchlas.Batch[T], ws []T) error {
	ctx = opkit.Context(ctx)
	pv, err := newProblem(ta, tb, a, b, c)
	if err != nil {
		return err
	}
	p := &pv // kernels copy it into their jobs: it stays on the stack
	p.alpha, p.beta = alpha, beta
	if c.Empty() {
		return nil
	}
	if p.k == 0 || alpha == 0 {
		// Nothing to multiply: C = beta*C, as BLAS does, with no kernel
		// to choose.
		return opkit.Interrupted(opName, scaleC(ctx, p))
	}
	dev := opkit.DeviceFrom(ctx)
	p.l1, p.l2 = cache.L1D(dev), cache.L2(dev)
	p.stream = streams(p, dev)
	key := p.key()
	err = Op.Run(ctx, opkit.DTypeOf[T](), key, dev, func(ctx context.Context, ch sel.Choice) error {
		if !canRun(ch, key, dev) {
			return opkit.Argf(opName, "route", "%s cannot run m=%d n=%d k=%d on %s", ch, p.m, p.n, p.k, dev.Key)
		}
		need := workspace(ctx, ch, dev, elemSize[T](), p.m, p.n, p.k)
		switch {
		case ws == nil:
			ws = make([]T, need)
		case len(ws) < need:
			return opkit.WorkspaceShort(ctx, opName, ch.String(), len(ws), need, func(ctx context.Context) int { return workspace(ctx, ch, dev, elemSize[T](), p.m, p.n, p.k) })
		default:
			for _, x := range []struct {
				name string
				x    batchlas.Batch[T]
			}{{"a", a}, {"b", b}, {"c", c}} {
				if err := opkit.CheckWorkspace(opName, ws[:need], x.name, x.x); err != nil {
					return err
				}
			}
		}
		switch ch.Family() {
		case familyDirect:
			return direct(ctx, p)
		case familySmall:
			return small(ctx, p)
		case familySIMD:
			return simdTiles(ctx, p)
		case familySwapped:
			return swappedTiles(ctx, p)
		case familyPacked:
			return packed(ctx, p, ch, dev, ws)
		case familyVendor:
			return vendor(ctx, p)
		}
		return opkit.Argf(opName, "route", "%s has no launch", ch)
	})
	return opkit.Interrupted(opName, err)
}

// BufferSize returns the workspace, in elements, that Gemm needs for these
// operands: it asks the selection core the same question Gemm asks, for the
// same device, and the packed kernel's blocking derives from that
// device too. Per-worker scratch is sized for the workers a call with ctx
// may use (batchlas.WithParallelism), so pass the call's context. A nil
// ctx is context.Background().
//
// It refuses the operands Gemm refuses, overlap included. For an empty C
// or k == 0 it is 0, with no decision (the pin is not read), as Gemm runs
// no kernel; it does not see alpha, so for alpha == 0 it decides and sizes
// as for any other alpha (a bad pin is an error).
func BufferSize[T batchlas.Float](ctx context.Context, ta, tb batchlas.Transpose, a, b, c batchlas.Batch[T]) (int, error) {
	ctx = opkit.Context(ctx)
	p, err := newProblem(ta, tb, a, b, c)
	if err != nil {
		return 0, err
	}
	if c.Empty() || p.k == 0 {
		return 0, nil
	}
	dev := opkit.DeviceFrom(ctx)
	ch, err := Op.Pick(ctx, opkit.DTypeOf[T](), p.key(), dev)
	if err != nil {
		return 0, err
	}
	return workspace(ctx, ch, dev, elemSize[T](), p.m, p.n, p.k), nil
}

// newProblem validates the arguments and derives m, n and k.
func newProblem[T batchlas.Float](ta, tb batchlas.Transpose, a, b, c batchlas.Batch[T]) (problem[T], error) {
	if err := ta.Check(opName, "ta"); err != nil {
		return problem[T]{}, err
	}
	if err := tb.Check(opName, "tb"); err != nil {
		return problem[T]{}, err
	}
	if err := a.Check(opName, "a", false); err != nil {
		return problem[T]{}, err
	}
	if err := b.Check(opName, "b", false); err != nil {
		return problem[T]{}, err
	}
	if err := c.Check(opName, "c", true); err != nil {
		return problem[T]{}, err
	}
	p := problem[T]{transA: ta == batchlas.Trans, transB: tb == batchlas.Trans, m: c.Rows, n: c.Cols, a: a, b: b, c: c}
	am, ak := a.Rows, a.Cols
	if p.transA {
		am, ak = ak, am
	}
	bk, bn := b.Rows, b.Cols
	if p.transB {
		bk, bn = bn, bk
	}
	p.k = ak
	switch {
	case am != p.m:
		return problem[T]{}, opkit.Argf(opName, "a", "op(a) has %d rows, c has %d: op(a) must be m x k with m = c.Rows", am, p.m)
	case bn != p.n:
		return problem[T]{}, opkit.Argf(opName, "b", "op(b) has %d columns, c has %d: op(b) must be k x n with n = c.Cols", bn, p.n)
	case bk != p.k:
		return problem[T]{}, opkit.Argf(opName, "b", "op(b) has %d rows but op(a) has %d columns (k): they must agree", bk, p.k)
	case a.Count != c.Count:
		return problem[T]{}, opkit.Argf(opName, "a", "a.Count %d != c.Count %d: give a one matrix per C_i, or batchlas.Broadcast(a, %d) to use one a for all", a.Count, c.Count, c.Count)
	case b.Count != c.Count:
		return problem[T]{}, opkit.Argf(opName, "b", "b.Count %d != c.Count %d: give b one matrix per C_i, or batchlas.Broadcast(b, %d) to use one b for all", b.Count, c.Count, c.Count)
	}
	if err := opkit.CheckDisjoint(opName, "c", c, "a", a); err != nil {
		return problem[T]{}, err
	}
	if err := opkit.CheckDisjoint(opName, "c", c, "b", b); err != nil {
		return problem[T]{}, err
	}
	return p, nil
}

func transKey(t bool) sel.KeyVal {
	if t {
		return sel.Str("T")
	}
	return sel.Str("N")
}

// key is the selection key of the call.
func (p *problem[T]) key() sel.Key {
	return sel.MakeKey(transKey(p.transA), transKey(p.transB), sel.Int(p.m), sel.Int(p.n), sel.Int(p.k), sel.Int(p.c.Count))
}

// canRun is gemm's correctness gate: the sizes a kernel supports and the
// device flags it needs. Nothing about speed.
func canRun(c sel.Choice, k sel.Key, d *sel.Device) bool {
	switch c.Family() {
	case familyDirect:
		return true
	case familySmall:
		// Built for tiny shapes but correct at any size (small.go): a
		// size limit here would only be a speed threshold (R3).
		return true
	case familySIMD, familySwapped:
		return true
	case familyPacked:
		// Any shape; the k slices must not be empty (mc derives from the
		// device and is always a whole number of register tiles).
		return packedKC(c) > 0
	case familyVendor:
		return d.Has("vendor:blas")
	}
	return false
}

// workspace is the scratch a choice needs for an m x n x k problem of
// elemSize-byte elements on device d, in elements: per-worker scratch
// times the number of workers a call with ctx may use. Gemm and BufferSize
// both call it with the context and device of the call, so they agree (the
// packed blocking depends on the device, the worker count on ctx's
// batchlas.WithParallelism).
func workspace(ctx context.Context, c sel.Choice, d *sel.Device, elemSize, m, n, k int) int {
	if c.Is(familyPacked) {
		mc, kc := packedBlocking(c, d, elemSize, k)
		return parallel.Workers(ctx) * parallel.Pad(packedPerWorker(mc, kc, m, n, k))
	}
	return 0
}

// elemSize is the size in bytes of one element of T.
func elemSize[T batchlas.Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// span is the number of elements one matrix of x occupies, from its first
// element to its last (x is not empty).
func span[T batchlas.Float](x batchlas.Batch[T]) int { return (x.Cols-1)*x.LD + x.Rows }

// streamDefaultL3 stands in for a device that does not report its L3.
const streamDefaultL3 = 32 << 20

// streams reports whether simd's groups should stream C to memory
// (problem.stream): a C that is written, not read (beta 0, one k slice),
// 64-byte aligned, and bigger than the last-level cache of device d. gemm
// n = 32 batch = 8192 float64 writes 64 MiB of C, and each line stored
// the usual way is first read from memory.
func streams[T batchlas.Float](p *problem[T], d *sel.Device) bool {
	if p.beta != 0 || p.k > simdSliceDepth || p.c.Count < 2 {
		return false
	}
	l3 := streamDefaultL3
	if d != nil && d.L3 > 0 {
		l3 = d.L3
	}
	bytes := float64(p.c.Stride) * float64(p.c.Count) * float64(elemSize[T]())
	return bytes > float64(l3) && simd.StreamAligned(p.c.Data, p.c.LD, p.c.Stride)
}
