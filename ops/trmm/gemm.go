package trmm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

// The gemm family: every op(A_i) becomes a dense square (denseDiag: zeros
// off the triangle, ones on a unit diagonal) and every B_i is copied, both
// into the workspace, and then one call of the gemm op computes the whole
// batch into B: B := alpha*S*Bc (side Left) or alpha*Bc*S (Right), S the
// squares and Bc the copies. That is a full product, twice trmm's flops,
// plus the copies' traffic; it pays where the triangle is small and B
// wide, where gemm's kernels for batches of small matrices take many
// matrices a call and tile one matrix, a few rows, a call.
//
// The squares hold op(A), already transposed for ta = Trans, so the gemm
// call is always the untransposed product, the case the gemm tables
// measure most finely. A broadcast A makes one square, read by every
// matrix (a broadcast operand of the gemm call).

// gemmCopies is the workspace the copies take, in elements: the squares
// (one per matrix, or one for a broadcast A) and the copies of B.
func gemmCopies[T batchlas.Float](p *problem[T]) (squares, copies int) {
	squares = p.t * p.t
	if !p.a.IsBroadcast() {
		squares *= p.b.Count
	}
	return squares, p.m * p.n * p.b.Count
}

// gemmOperands returns the squares and the copies of B as batches over
// the head of ws (gemmCopies elements; tight, one matrix after another).
func gemmOperands[T batchlas.Float](p *problem[T], ws []T) (sq, bc batchlas.Batch[T]) {
	squares, copies := gemmCopies(p)
	sq = tightBatch(ws[:squares], p.t, p.t, p.b.Count, p.a.IsBroadcast())
	bc = tightBatch(ws[squares:squares+copies], p.m, p.n, p.b.Count, false)
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
// the copies and what the gemm op asks for the product. The gemm op sizes
// its workspace by the product's shape and its own decision, never by the
// operands' values, so it is asked with one square and one copy
// broadcast over the batch: views of the head of ws when ws holds them,
// else of a small slice made here (ws is too short then, or nil: the call
// allocates anyway).
func gemmWorkspace[T batchlas.Float](ctx context.Context, p *problem[T], ws []T) (int, error) {
	squares, copies := gemmCopies(p)
	one := p.t*p.t + p.m*p.n
	if len(ws) < one {
		ws = make([]T, one)
	} else if err := opkit.CheckWorkspace(opName, ws[:one], "b", p.b); err != nil {
		// The views must not overlap the product's output either; the
		// error is the one the call gives for that workspace.
		return 0, err
	}
	sq := tightBatch(ws[:p.t*p.t], p.t, p.t, p.b.Count, true)
	bc := tightBatch(ws[p.t*p.t:one], p.m, p.n, p.b.Count, true)
	var need int
	var err error
	if p.side == batchlas.Left {
		need, err = gemm.BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, sq, bc, p.b)
	} else {
		need, err = gemm.BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, bc, sq, p.b)
	}
	return squares + copies + need, err
}

// runGemm runs the gemm family with ws of gemmWorkspace elements: the
// squares and copies on the workers (a broadcast A's one square first, on
// this goroutine), then the gemm call. An interruption while copying has
// written nothing of B, and the gemm call's leaves every C_i = B_i done
// or untouched, as trmm's contract says.
func runGemm[T batchlas.Float](ctx context.Context, p *problem[T], ws []T) error {
	squares, copies := gemmCopies(p)
	sq, bc := gemmOperands(p, ws)
	if p.a.IsBroadcast() {
		denseDiag(p.uplo == batchlas.Lower, p.ta == batchlas.Trans, p.diag == batchlas.Unit, p.t, p.a.Data, p.a.LD, sq.Data)
	}
	if err := runJob(ctx, runCopies, p, ws[:squares+copies], 0); err != nil {
		if e, ok := err.(*batchlas.InterruptedError); ok {
			e.Completed, e.Touched, e.Failed = 0, 0, nil
		}
		return err
	}
	return gemmProduct(ctx, p, sq, bc, ws[squares+copies:])
}

// copies writes matrix i's square (unless A is a broadcast) and the copy
// of its B into the job's workspace.
func (j *job[T]) copies(i int) {
	p := &j.p
	a, b := p.a, p.b
	squares, _ := gemmCopies(p)
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
