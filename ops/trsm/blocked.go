package trsm

import (
	"context"
	"errors"
	"runtime"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gemm"
	sel "github.com/batchlas-go/batchlas/select"
)

// The blocked family: a triangle of order t is cut into ceil(t/nb)
// diagonal blocks of near-equal order (at most nb), solved by the direct
// kernel, by splitting it recursively in two near the middle; the coupling
// block is applied to the rest of B by one gemm call on the whole (chunk of
// the) batch, through gemm's public entry point so its decision is traced.
// Splitting in halves rather than peeling nb at a time gives gemm its
// largest, squarest products (a 16x32x16 update instead of three 8-deep
// ones). Near-equal blocks rather than multiples of nb avoid a sliver: at
// t=19, nb=16 blocks of 16 and 3 made a 3-row gemm update and a 3-row
// solve, and ran at half the speed of the direct kernel; blocks of 10 and
// 9 do not.
//
// The batch is walked in chunks sized to stay in cache across the passes
// the recursion makes over it (one per diagonal block and one per update);
// every kernel call inside a chunk is itself parallel over the chunk.
//
// Workspace: the direct kernel's packed diagonal block per worker
// (blockedOwnSize), then the largest workspace any gemm update asks for
// (blockedGemmSize: gemm.BufferSize on every update of the recursion, for
// each chunk size), which every update gets: the caller's workspace covers
// the nested calls, so a call with it supplied allocates nothing.

// launchBlocked solves every matrix of the batch with leaf size nb; alpha
// is not 0 (Trsm zeroes B itself).
func launchBlocked[T batchlas.Float](ctx context.Context, p *problem, nb int, alpha T, a, b batchlas.Batch[T], ws []T) error {
	if p.t <= nb {
		return launchDirect(ctx, p, alpha, a, b, ws)
	}
	// A of stride 0 (a broadcast, or a single matrix) is one stored matrix.
	chunk := chunkCount(ctx, p, a.Stride == 0, int(unsafe.Sizeof(alpha)))
	own := blockedOwnSize(ctx, p, nb)
	for lo := 0; lo < b.Count; lo += chunk {
		n := min(chunk, b.Count-lo)
		s := solver[T]{p: *p, nb: nb, ws: ws[:own], gws: ws[own:], a: part(a, lo, n), b: part(b, lo, n)}
		if err := s.solve(ctx, 0, p.t, alpha); err != nil {
			return s.interrupted(err, lo, b.Count)
		}
	}
	return nil
}

// blockedOwnSize is the workspace blocked's diagonal blocks need, at the
// start of its workspace.
func blockedOwnSize(ctx context.Context, p *problem, nb int) int {
	return parallel.Workers(ctx) * workSize(min(p.t, nb))
}

// blockedGemmSize is the most workspace a gemm update of launchBlocked
// asks for: gemm.BufferSize on each update of the recursion, for the two
// chunk sizes the batch is cut into (a full chunk and the rest), with the
// context of the call (pins, device and worker cap decide as they will
// for the updates).
func blockedGemmSize[T batchlas.Float](ctx context.Context, p *problem, nb int, a, b batchlas.Batch[T]) (int, error) {
	if p.t <= nb {
		return 0, nil
	}
	chunk := chunkCount(ctx, p, a.Stride == 0, int(unsafe.Sizeof(T(0))))
	most := 0
	sizes, rest := [2]int{min(chunk, b.Count)}, b.Count > chunk && b.Count%chunk != 0
	if rest {
		sizes[1] = b.Count % chunk
	}
	for _, n := range sizes {
		if n == 0 {
			continue
		}
		s := solver[T]{p: *p, nb: nb, a: part(a, 0, n), b: part(b, 0, n)}
		need, err := s.gemmSize(ctx, 0, p.t)
		if err != nil {
			return 0, err
		}
		most = max(most, need)
	}
	return most, nil
}

// gemmSize walks the recursion of solve over block [k0,k1) and returns the
// largest gemm.BufferSize of its updates.
func (s *solver[T]) gemmSize(ctx context.Context, k0, k1 int) (int, error) {
	if k1-k0 <= s.nb {
		return 0, nil
	}
	f0, f1, s0, s1 := s.halves(k0, k1)
	var need int
	var err error
	if s.p.side == batchlas.Left {
		blk, t := s.opA(s0, s1, f0, f1)
		need, err = gemm.BufferSize(ctx, t, batchlas.NoTrans, blk, s.rowsOrCols(f0, f1), s.rowsOrCols(s0, s1))
	} else {
		blk, t := s.opA(f0, f1, s0, s1)
		need, err = gemm.BufferSize(ctx, batchlas.NoTrans, t, s.rowsOrCols(f0, f1), blk, s.rowsOrCols(s0, s1))
	}
	if err != nil {
		return 0, err
	}
	first, err := s.gemmSize(ctx, f0, f1)
	if err != nil {
		return 0, err
	}
	second, err := s.gemmSize(ctx, s0, s1)
	return max(need, first, second), err
}

// interrupted turns an *InterruptedError from a nested call on the chunk
// of s, which starts at matrix lo of a batch of count, into the report for
// the whole batch: the chunks before lo are solved; the chunk's matrices
// may be partly written (only those the chunk's first nested call reached,
// when it was that call that stopped); the chunks after it are untouched.
// Any other error is returned as it is.
func (s *solver[T]) interrupted(err error, lo, count int) error {
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	touched := lo + s.b.Count
	if s.calls == 0 {
		touched = lo + ie.Touched
	}
	return &batchlas.InterruptedError{Count: count, Completed: lo, Touched: touched, Err: ie.Err}
}

// twin is trsm's OpSpec.Twin: launchBlocked hands a triangle of order at
// most nb straight to the direct kernel.
func twin(c sel.Choice, _ sel.DType, k sel.Key, _ *sel.Device) string {
	order := k.Int(keyM)
	if k.Str(keySide) == batchlas.Right.String() {
		order = k.Int(keyN)
	}
	if c.Is(blocked) && order <= c.Field("nb") {
		return direct.Name
	}
	return ""
}

// chunkCount is the number of matrices per chunk: enough to fill the
// cores' L2 caches (1 MiB if the device does not say), and at least four
// per core so each pass still balances.
//
// It counts the device's cores, not the workers the call gets: the chunk
// is the batch of every nested gemm call, and gemm chooses its kernel by
// batch size, so a chunk that followed batchlas.WithParallelism (or
// GOMAXPROCS) would make the results depend on the parallelism. On the
// machine that tuned the tables the two counts are the same.
func chunkCount(ctx context.Context, p *problem, broadcast bool, size int) int {
	perMatrix := p.m * p.n
	if !broadcast {
		perMatrix += p.t * p.t
	}
	perMatrix *= size
	dev := opkit.DeviceFrom(ctx)
	cores := dev.Cores
	if cores <= 0 {
		cores = runtime.NumCPU() // a device that does not say: the host's
	}
	budget := 1 << 20
	if dev.L2 > 0 {
		budget = dev.L2 * cores
	}
	return max(budget/perMatrix, 4*cores)
}

// part is matrices [lo, lo+n) of x. It edits a copy of x, so a broadcast
// stays a broadcast (a literal would lose the mark, and the nested calls
// would refuse its stride 0); x has passed Check, so unlike Batch.Sub it
// has no error to return.
func part[T batchlas.Float](x batchlas.Batch[T], lo, n int) batchlas.Batch[T] {
	x.Data = x.Data[lo*x.Stride:]
	x.Count = n
	return x
}

// view is the (r1-r0) x (c1-c0) sub-matrix at rows r0, columns c0 of every
// matrix of x, with x's leading dimension and stride.
func view[T batchlas.Float](x batchlas.Batch[T], r0, r1, c0, c1 int) batchlas.Batch[T] {
	x.Data = x.Data[r0+c0*x.LD:]
	x.Rows, x.Cols = r1-r0, c1-c0
	return x
}

// solver holds one chunk's operands through the recursion.
type solver[T batchlas.Float] struct {
	p    problem // by value: the recursion would move a pointed-to one to the heap
	nb   int
	ws   []T // the diagonal blocks' (direct's) workspace
	gws  []T // every gemm update's
	a, b batchlas.Batch[T]
	// calls counts the nested calls (leaf solves and gemm updates) that
	// returned: none means nothing but the current call has written B.
	calls int
}

// opA is rows [r0,r1) x columns [c0,c1) of op(A), as a view of A and the
// transpose flag that makes it so.
func (s *solver[T]) opA(r0, r1, c0, c1 int) (batchlas.Batch[T], batchlas.Transpose) {
	if s.p.ta == batchlas.NoTrans {
		return view(s.a, r0, r1, c0, c1), batchlas.NoTrans
	}
	return view(s.a, c0, c1, r0, r1), batchlas.Trans
}

// rowsOrCols is rows [k0,k1) of B for side Left, columns [k0,k1) for Right:
// the part of B (and X) that diagonal block [k0,k1) of op(A) touches.
func (s *solver[T]) rowsOrCols(k0, k1 int) batchlas.Batch[T] {
	if s.p.side == batchlas.Left {
		return view(s.b, k0, k1, 0, s.b.Cols)
	}
	return view(s.b, 0, s.b.Rows, k0, k1)
}

// solve overwrites the part of B that diagonal block [k0,k1) touches with
// its solution, B having already received every update from outside the
// block; alpha scales that part of B first.
func (s *solver[T]) solve(ctx context.Context, k0, k1 int, alpha T) error {
	if k1-k0 <= s.nb {
		leaf := s.p
		leaf.t = k1 - k0
		if leaf.side == batchlas.Left {
			leaf.m = leaf.t
		} else {
			leaf.n = leaf.t
		}
		if err := launchDirect(ctx, &leaf, alpha, view(s.a, k0, k1, k0, k1), s.rowsOrCols(k0, k1), s.ws); err != nil {
			return err
		}
		s.calls++
		return nil
	}
	f0, f1, s0, s1 := s.halves(k0, k1)
	if err := s.solve(ctx, f0, f1, alpha); err != nil {
		return err
	}
	// B_second = alpha*B_second - (coupling of the solved part).
	var err error
	if s.p.side == batchlas.Left {
		blk, t := s.opA(s0, s1, f0, f1)
		err = gemm.Gemm(ctx, t, batchlas.NoTrans, -1, blk, s.rowsOrCols(f0, f1), alpha, s.rowsOrCols(s0, s1), s.gws)
	} else {
		blk, t := s.opA(f0, f1, s0, s1)
		err = gemm.Gemm(ctx, batchlas.NoTrans, t, -1, s.rowsOrCols(f0, f1), blk, alpha, s.rowsOrCols(s0, s1), s.gws)
	}
	if err != nil {
		return err
	}
	s.calls++
	return s.solve(ctx, s0, s1, 1)
}

// halves splits block [k0,k1) in two and orders the parts the way the
// solve runs: forward (first block first) when it runs down the triangle,
// op(A) lower for Left, upper for Right.
func (s *solver[T]) halves(k0, k1 int) (f0, f1, s0, s1 int) {
	mid := k0 + splitAt(k1-k0, s.nb)
	lower := (s.p.uplo == batchlas.Lower) == (s.p.ta == batchlas.NoTrans)
	if lower != (s.p.side == batchlas.Left) {
		return mid, k1, k0, mid
	}
	return k0, mid, mid, k1
}

// splitAt is the order of the first part when a triangle of order t > nb
// is split in two: floor(L/2) of its L = ceil(t/nb) near-equal blocks. Each
// part then needs no more blocks of order at most nb than it was given:
// the first has floor(t*L1/L) <= nb*L1 rows, the second
// ceil(t*(L-L1)/L) <= nb*(L-L1).
func splitAt(t, nb int) int {
	blocks := (t + nb - 1) / nb
	return t * (blocks / 2) / blocks
}
