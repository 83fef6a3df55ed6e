package trmm

import (
	"context"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gemm"
	sel "github.com/batchlas-go/batchlas/select"
)

// The gemm family: every op(A_i) becomes a dense square (denseDiag: zeros
// off the triangle, ones on a unit diagonal) and every B_i is copied, both
// into the workspace, and then one call of the gemm op computes them into
// B: B := alpha*S*Bc (side Left) or alpha*Bc*S (Right), S the squares and
// Bc the copies, in passes of as many matrices as fit a core's L2
// (gemmChunk). That is a full product, twice trmm's flops,
// plus the copies' traffic; it pays where the triangle is small and B
// wide, where gemm's kernels for batches of small matrices take many
// matrices a call and tile one matrix, a few rows, a call.
//
// The squares hold op(A), already transposed for ta = Trans, so the gemm
// call is always the untransposed product, the case the gemm tables
// measure most finely. A broadcast A makes one square, read by every
// matrix (a broadcast operand of the gemm call).

// gemmChunk is the most matrices one pass of the family takes: their
// squares, their copies and their B together fill at most one core's L2
// (the device's, from its facts). The whole batch at once was a cliff
// once it left L2: on the Zen 5 guest (L2 1 MiB), float64 m = 4, n = 16,
// side Left, took 0.082 ms for 1024 matrices and 0.39 for 2048. Each
// worker's share of a pass then stays in its core's cache from the copy
// to the product. The size does not depend on the worker count, so
// neither do the gemm op's decisions for the passes nor the results.
func gemmChunk[T batchlas.Float](p *problem[T], d *sel.Device) int {
	per := 2 * p.m * p.n // the copy and B
	if !p.a.IsBroadcast() {
		per += p.t * p.t
	}
	return matricesIn[T](cache.L2(d).Size, per)
}

// matricesIn is how many matrices of per elements of T each fit in bytes,
// at least one.
func matricesIn[T batchlas.Float](bytes, per int) int {
	return max(1, bytes/(per*int(unsafe.Sizeof(T(0)))))
}

// gemmPasses cuts the batch into passes of at most gemmChunk matrices,
// as even as they go: pass k is matrices [k*count/passes,
// (k+1)*count/passes), of size count/passes or one more.
func gemmPasses[T batchlas.Float](p *problem[T], d *sel.Device) (passes, most int) {
	count, chunk := p.b.Count, gemmChunk(p, d)
	passes = (count + chunk - 1) / chunk
	return passes, (count + passes - 1) / passes
}

// gemmCopies is the workspace the copies of a pass of size count take,
// in elements: the squares (one per matrix, or one for a broadcast A) and
// the copies of B.
func gemmCopies[T batchlas.Float](p *problem[T], count int) (squares, copies int) {
	squares = p.t * p.t
	if !p.a.IsBroadcast() {
		squares *= count
	}
	return squares, p.m * p.n * count
}

// gemmOperands returns the squares and the copies of B of pass q (a
// problem over the pass's matrices) as batches over the head of ws
// (gemmCopies elements; tight, one matrix after another).
func gemmOperands[T batchlas.Float](q *problem[T], ws []T) (sq, bc batchlas.Batch[T]) {
	squares, copies := gemmCopies(q, q.b.Count)
	sq = tightBatch(ws[:squares], q.t, q.t, q.b.Count, q.a.IsBroadcast())
	bc = tightBatch(ws[squares:squares+copies], q.m, q.n, q.b.Count, false)
	return sq, bc
}

// tightBatch is count tight rows x cols matrices over data, or one
// broadcast to count when bcast is set.
func tightBatch[T batchlas.Float](data []T, rows, cols, count int, bcast bool) batchlas.Batch[T] {
	if bcast {
		one := batchlas.Batch[T]{Data: data, Rows: rows, Cols: cols, LD: max(1, rows), Stride: max(1, rows) * cols, Count: 1}
		return batchlas.Broadcast(one, count)
	}
	return batchlas.Batch[T]{Data: data, Rows: rows, Cols: cols, LD: max(1, rows), Stride: max(1, rows) * cols, Count: count}
}

// gemmProduct is the gemm call of the family: B := alpha*S*Bc (Left) or
// alpha*Bc*S (Right).
func gemmProduct[T batchlas.Float](ctx context.Context, p *problem[T], sq, bc batchlas.Batch[T], ws []T) error {
	if p.side == batchlas.Left {
		return gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, p.alpha, sq, bc, 0, p.b, ws)
	}
	return gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, p.alpha, bc, sq, 0, p.b, ws)
}

// gemmWorkspace is the gemm family's whole workspace for a call with ctx:
// the copies of its largest pass and what the gemm op asks for the
// product of a pass (of either size the passes have). The gemm op sizes
// its workspace by the product's shape and its own decision, never by the
// operands' values, so it is asked with one square and one copy
// broadcast over the pass: views of the head of ws when ws holds them,
// else of a small slice made here (ws is too short then, or nil: the call
// allocates anyway).
func gemmWorkspace[T batchlas.Float](ctx context.Context, p *problem[T], ws []T) (int, error) {
	passes, most := gemmPasses(p, opkit.DeviceFrom(ctx))
	squares, copies := gemmCopies(p, most)
	one := p.t*p.t + p.m*p.n
	if len(ws) < one {
		ws = make([]T, one)
	} else if err := opkit.CheckWorkspace(opName, ws[:one], "b", p.b); err != nil {
		// The views must not overlap the product's output either; the
		// error is the one the call gives for that workspace.
		return 0, err
	}
	need := 0
	for count := max(1, p.b.Count/passes); count <= most; count++ { // the passes' sizes differ by one at most
		sq := tightBatch(ws[:p.t*p.t], p.t, p.t, count, true)
		bc := tightBatch(ws[p.t*p.t:one], p.m, p.n, count, true)
		out := p.b
		out.Count = count
		var n int
		var err error
		if p.side == batchlas.Left {
			n, err = gemm.BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, sq, bc, out)
		} else {
			n, err = gemm.BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, bc, sq, out)
		}
		if err != nil {
			return 0, err
		}
		need = max(need, n)
	}
	return squares + copies + need, nil
}

// runGemm runs the gemm family with ws of gemmWorkspace elements, pass
// after pass (gemmPasses): the pass's squares and copies on the workers
// (a broadcast A's one square first, once, on this goroutine), then the
// gemm call for the pass. An interruption while a pass copies has written
// nothing of its B, and the gemm call's leaves every C_i = B_i of the
// pass done or untouched, so the call's matrices are too, as trmm's
// contract says.
func runGemm[T batchlas.Float](ctx context.Context, p *problem[T], ws []T) error {
	passes, most := gemmPasses(p, opkit.DeviceFrom(ctx))
	squares, copies := gemmCopies(p, most)
	if p.a.IsBroadcast() {
		denseDiag(p.uplo == batchlas.Lower, p.ta == batchlas.Trans, p.diag == batchlas.Unit, p.t, p.a.Data, p.a.LD, ws[:p.t*p.t])
	}
	count := p.b.Count
	for k := range passes {
		lo, hi := k*count/passes, (k+1)*count/passes
		q, err := p.pass(lo, hi)
		if err != nil {
			return err
		}
		sq, bc := gemmOperands(&q, ws)
		nonFinite, err := copyPass(ctx, &q, ws[:squares+copies])
		if err != nil {
			return passInterrupted(err, count, lo, true)
		}
		if err := gemmProduct(ctx, &q, sq, bc, ws[squares+copies:]); err != nil {
			if e, ok := err.(*batchlas.InterruptedError); ok && nonFinite {
				// The pass's product stopped after its first
				// e.Completed matrices: they are done but for the mend.
				if r, err := q.pass(0, e.Completed); err == nil {
					mendPass(ctx, &r, bc.Data)
				}
			}
			return passInterrupted(err, count, lo, false)
		}
		if nonFinite {
			mendPass(ctx, &q, bc.Data)
		}
	}
	return nil
}

// copyPass writes pass q's squares and copies of B into ws (runCopies)
// on the workers and reports whether a copy holds an Inf or NaN: each
// worker looks over the copies it has just written, while they are in
// its cache.
func copyPass[T batchlas.Float](ctx context.Context, q *problem[T], ws []T) (nonFinite bool, err error) {
	j := passJob(runCopies, q, ws)
	defer parallel.Put(j)
	j.nonFinite.Store(false)
	err = parallel.Run(ctx, q.b.Count, float64(q.m*q.n), j)
	return j.nonFinite.Load(), err
}

// passJob is a pooled job of kernel over pass q's workspace ws, a loop
// over its matrices without per-worker scratch.
func passJob[T batchlas.Float](kernel jobKernel, q *problem[T], ws []T) *job[T] {
	j := parallel.Get[job[T]]()
	j.kernel, j.p, j.ws, j.slot, j.group = kernel, *q, ws, 0, 1
	return j
}

// mendPass recomputes the B_i of pass q whose copies (in bc, tight, one
// after another) hold an Inf or NaN (mendNonFinite), on the workers and
// whatever ctx says: the pass's product is done, and a B_i left unmended
// would be neither done nor untouched.
func mendPass[T batchlas.Float](ctx context.Context, q *problem[T], bc []T) {
	j := passJob(runMend, q, bc)
	defer parallel.Put(j)
	parallel.RunAll(ctx, q.b.Count, float64(q.m*q.n), j)
}

// pass is p over matrices [lo, hi) of its batch.
func (p *problem[T]) pass(lo, hi int) (problem[T], error) {
	q := *p
	var err error
	if q.a, err = p.a.Sub(lo, hi); err != nil {
		return q, err
	}
	q.b, err = p.b.Sub(lo, hi)
	return q, err
}

// passInterrupted turns the interruption of the pass that starts at
// matrix lo into the call's (count matrices): the passes before it are
// done, and a stop while it copied has written none of its matrices.
func passInterrupted(err error, count, lo int, copying bool) error {
	e, ok := err.(*batchlas.InterruptedError)
	if !ok {
		return err
	}
	if copying {
		e.Completed, e.Touched, e.Failed = 0, 0, nil
	}
	e.Count, e.Completed, e.Touched = count, lo+e.Completed, lo+e.Touched
	return e
}

// copies writes matrix i's square (unless A is a broadcast) and the copy
// of its B into the job's workspace.
func (j *job[T]) copies(i int) {
	p := &j.p
	a, b := p.a, p.b
	squares, _ := gemmCopies(p, b.Count)
	if !a.IsBroadcast() {
		tt := p.t * p.t
		denseDiag(p.uplo == batchlas.Lower, p.ta == batchlas.Trans, p.diag == batchlas.Unit, p.t, a.Data[i*a.Stride:], a.LD, j.ws[i*tt:(i+1)*tt])
	}
	mn := p.m * p.n
	dst := j.ws[squares+i*mn : squares+(i+1)*mn]
	src := b.Data[i*b.Stride:]
	if b.LD == p.m {
		copy(dst, src[:mn]) // tight columns: one copy
		return
	}
	for c := range p.n {
		copy(dst[c*p.m:(c+1)*p.m], src[c*b.LD:c*b.LD+p.m])
	}
}
