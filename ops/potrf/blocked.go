package potrf

import (
	"context"
	"errors"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// blockedNB is the block size of the blocked kernel's nested path: a
// trailing update through gemm with k = 64 is well into gemm's efficient
// range, and a 64x64 diagonal block (32 KiB in float64) factors in L1/L2.
const blockedNB = 64

// defaultL2 stands in for a device that does not report its L2 size.
const defaultL2 = 512 << 10

// The paths of the blocked kernel.
const (
	blockedByTiny   = iota // n <= unrollMax: the tiny kernel's straight-line code
	blockedByMatrix        // per matrix, left-looking column by column
	blockedByBatch         // right-looking over the batch, nested trsm and gemm
)

// blockedPath says how the blocked kernel factors a on device d. A single
// block (n <= blockedNB), or a matrix that fits in a core's L2 cache, is
// factored whole per matrix: the per-matrix kernel keeps the matrix in
// cache for the whole factorisation, while every step of the batch-wide
// path streams the whole batch through memory. So the block size the
// driver uses is derived from the order and the device's cache (a
// performance fact, never a gate): the whole matrix when it fits in L2,
// blockedNB above.
func blockedPath[T batchlas.Float](n int, a batchlas.Batch[T], d *sel.Device) int {
	return blockedPathFor(n, int(unsafe.Sizeof(a.Data[0])), d)
}

// blockedPathFor is blockedPath for elements of elemSize bytes.
func blockedPathFor(n, elemSize int, d *sel.Device) int {
	l2 := d.L2
	if l2 <= 0 {
		l2 = defaultL2
	}
	switch {
	case n <= unrollMax:
		return blockedByTiny
	case n <= blockedNB || n*n*elemSize <= l2:
		return blockedByMatrix
	}
	return blockedByBatch
}

// blockedPotrf is right-looking blocked Cholesky over the whole batch. At
// each step of blockedNB columns it
//
//  1. factors the diagonal block of every matrix (batch-parallel, this
//     package's per-matrix code),
//  2. solves the panel below it (right of it for Upper) for every matrix
//     with one call of the trsm op,
//  3. updates the trailing matrix: the uplo triangle of each trailing
//     diagonal block with this package's syrk (a gemm would also write the
//     other triangle, which potrf must leave untouched), and the rectangle
//     beside each trailing diagonal block with one call of the gemm op.
//
// The nested trsm and gemm calls go through those ops' public entry points
// with this call's context, so their decisions are traced and covered.
// Each gets the call's ws, which BufferSize sized for the largest of their
// BufferSizes (blockedNestedSize): with it supplied, the call allocates
// nothing.
//
// When blockedPath says so there is a single step and no nested call:
// each matrix is factored whole, by the tiny kernel's straight-line code up
// to unrollMax and by the unblocked kernel above (in cache, it measured at
// least as fast as the lpanel widths from n = 13 to 256).
func blockedPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], ws []T, info []int32) error {
	n := a.Rows
	switch blockedPath(n, a, opkit.DeviceFrom(ctx)) {
	case blockedByTiny:
		return tinyPotrf(ctx, uplo, a, info)
	case blockedByMatrix:
		return unblockedPotrf(ctx, uplo, a, ws, info)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.uplo, j.a, j.info = uplo, a, info
	for k0 := 0; k0 < n; k0 += blockedNB {
		kb := min(blockedNB, n-k0)
		// 1. Diagonal block; a matrix that failed earlier keeps its info.
		j.kernel, j.k0, j.kb = runBlockedDiag, k0, kb
		err := parallel.Run(ctx, a.Count, flopsPerMatrix(kb), j)
		r0 := k0 + kb // first trailing row/column
		if err != nil {
			// The first step's matrices past those it reached are
			// untouched; the last step's diagonal factorisation
			// completes the matrices it reached.
			var ie *batchlas.InterruptedError
			if errors.As(err, &ie) {
				switch {
				case k0 == 0:
					return interruptedBatch(err, a.Count, 0, ie.Touched)
				case r0 == n:
					return interruptedBatch(err, a.Count, ie.Completed, a.Count)
				}
			}
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
		if r0 == n {
			break
		}
		// 2. Panel solve.
		side, tri, diagBlock, panel := panelSolve(uplo, a, k0, kb)
		err = trsm.Trsm(ctx, side, tri, batchlas.Trans, batchlas.NonUnit, 1, diagBlock, panel, ws)
		if err != nil {
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
		// 3a. Trailing diagonal blocks: the uplo triangle only.
		trailing := float64(n-r0) * float64(kb) * float64(blockedNB) * 2
		j.kernel = runBlockedTrailing
		err = parallel.Run(ctx, a.Count, trailing, j)
		if err != nil {
			return interruptedBatch(err, a.Count, 0, a.Count)
		}
		// 3b. The rectangles beside the trailing diagonal blocks.
		for j0 := r0; j0 < n; j0 += blockedNB {
			ta, tb, x, y, c, ok := rectangleUpdate(uplo, a, k0, kb, j0)
			if !ok {
				break
			}
			if err = gemm.Gemm(ctx, ta, tb, -1, x, y, 1, c, ws); err != nil {
				return interruptedBatch(err, a.Count, 0, a.Count)
			}
		}
	}
	return nil
}

// blockedDiag factors the diagonal block of kb columns from k0 of
// matrices [lo, hi) of a; a matrix that failed earlier keeps its info.
func blockedDiag[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], info []int32, k0, kb, lo, hi int) {
	n, ld, stride := a.Rows, a.LD, a.Stride
	for i := lo; i < hi; i++ {
		if info[i] != 0 {
			continue
		}
		m := a.Data[i*stride+k0*ld+k0 : i*stride+(n-1)*ld+n]
		var f int
		if uplo == batchlas.Lower {
			f = lowerPanel(m, ld, 0, kb, kb)
		} else {
			f = upperPanel(m, ld, 0, kb, kb)
		}
		if f != 0 {
			info[i] = int32(k0 + f)
		}
	}
}

// blockedTrailing updates the uplo triangle of every trailing diagonal
// block (from r0) of matrices [lo, hi) of a with the columns [k0, r0).
func blockedTrailing[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], k0, r0, lo, hi int) {
	n, ld, stride := a.Rows, a.LD, a.Stride
	for i := lo; i < hi; i++ {
		m := a.Data[i*stride : i*stride+(n-1)*ld+n]
		for j0 := r0; j0 < n; j0 += blockedNB {
			jb := min(blockedNB, n-j0)
			if uplo == batchlas.Lower {
				lowerUpdate(m, ld, j0, jb, j0+jb, k0, r0)
			} else {
				upperUpdate(m, ld, j0, jb, j0+jb, k0, r0)
			}
		}
	}
}

// panelSolve is the trsm call of the step of kb columns from k0 (the
// diagonal block is factored): side and triangle, the diagonal block, and
// the panel it solves. Lower: L21 = A21 * L11^-T; Upper: U12 = U11^-T * A12.
func panelSolve[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], k0, kb int) (side batchlas.Side, tri batchlas.Uplo, diagBlock, panel batchlas.Batch[T]) {
	n, r0 := a.Rows, k0+kb
	diagBlock = view(a, k0, k0, kb, kb)
	if uplo == batchlas.Lower {
		return batchlas.Right, batchlas.Lower, diagBlock, view(a, r0, k0, n-r0, kb)
	}
	return batchlas.Left, batchlas.Upper, diagBlock, view(a, k0, r0, kb, n-r0)
}

// rectangleUpdate is the gemm call that updates the rectangle beside the
// trailing diagonal block at j0 with the step's kb columns from k0: C -=
// op(X)*op(Y), with ok false when there is no rectangle (the last block).
//
//	Lower: A(j0+jb:n, j0:j0+jb) -= L(j0+jb:n, k0:r0) * L(j0:j0+jb, k0:r0)^T
//	Upper: A(j0:j0+jb, j0+jb:n) -= U(k0:r0, j0:j0+jb)^T * U(k0:r0, j0+jb:n)
func rectangleUpdate[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], k0, kb, j0 int) (ta, tb batchlas.Transpose, x, y, c batchlas.Batch[T], ok bool) {
	n := a.Rows
	jb := min(blockedNB, n-j0)
	rest := n - j0 - jb
	if rest == 0 {
		return 0, 0, x, y, c, false
	}
	if uplo == batchlas.Lower {
		return batchlas.NoTrans, batchlas.Trans, view(a, j0+jb, k0, rest, kb), view(a, j0, k0, jb, kb), view(a, j0+jb, j0, rest, jb), true
	}
	return batchlas.Trans, batchlas.NoTrans, view(a, k0, j0, kb, jb), view(a, k0, j0+jb, kb, rest), view(a, j0, j0+jb, jb, rest), true
}

// blockedNestedSize is the workspace of the batch-wide path: the largest
// trsm.BufferSize or gemm.BufferSize of its nested calls, asked with the
// call's context so that each sizes for the kernel it will choose.
func blockedNestedSize[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T]) (int, error) {
	n, most := a.Rows, 0
	for k0 := 0; k0+blockedNB < n; k0 += blockedNB {
		kb := blockedNB
		side, tri, diagBlock, panel := panelSolve(uplo, a, k0, kb)
		need, err := trsm.BufferSize(ctx, side, tri, batchlas.Trans, batchlas.NonUnit, diagBlock, panel)
		if err != nil {
			return 0, err
		}
		most = max(most, need)
		for j0 := k0 + kb; j0 < n; j0 += blockedNB {
			ta, tb, x, y, c, ok := rectangleUpdate(uplo, a, k0, kb, j0)
			if !ok {
				break
			}
			if need, err = gemm.BufferSize(ctx, ta, tb, x, y, c); err != nil {
				return 0, err
			}
			most = max(most, need)
		}
	}
	return most, nil
}

// interruptedBatch turns an *InterruptedError from a step of the
// batch-wide path (from parallel.For or a nested trsm or gemm call, which
// report over their own view) into the report for the batch of count:
// [0, completed) complete, [touched, count) untouched. Any other error is
// returned as it is.
func interruptedBatch(err error, count, completed, touched int) error {
	var ie *batchlas.InterruptedError
	if !errors.As(err, &ie) {
		return err
	}
	return &batchlas.InterruptedError{Count: count, Completed: completed, Touched: touched, Err: ie.Err}
}

// view is the rows x cols sub-matrix at (r0, c0) of every matrix of a, as a
// batch with a's leading dimension and stride. It edits a copy of a rather
// than building a literal, which would drop what else a batch carries (a
// broadcast's mark).
func view[T batchlas.Float](a batchlas.Batch[T], r0, c0, rows, cols int) batchlas.Batch[T] {
	a.Data = a.Data[c0*a.LD+r0:]
	a.Rows, a.Cols = rows, cols
	return a
}
