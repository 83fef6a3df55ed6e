package syrk

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// transDepth is how many columns of op(A) the tile kernel transposes at a
// time for trans = T (op(A) = A^T, whose rows are strided in A): the
// worker's scratch holds an n x transDepth slice of op(A), 128 KiB of
// float64 at n = 256, and later slices add to C (beta 1).
const transDepth = 64

// tileSlot is the tile kernel's per-worker scratch, in elements: none for
// NoTrans, which reads A where it lies; a slice of op(A), transposed, for
// Trans.
func tileSlot(n, k int, trans bool) int {
	if !trans {
		return 0
	}
	return n * min(k, transDepth)
}

// syrkTile computes the uplo triangle of C_i := alpha*op(A_i)*op(A_i)^T +
// beta*C_i for matrix i of p (k >= 1, alpha != 0) on the vector tile
// (simd.Tile), where the triangle kernel does not run (syrkTri), a block
// of simd.Cols columns at a time:
//
//   - the block's diagonal block (at most Cols x Cols) is one tile into a
//     square on the stack, of which only the uplo triangle is added to
//     beta*C: nothing outside the triangle is read or written, not even
//     for a moment;
//   - the rest of the block's columns on the uplo side (below the
//     diagonal block for Lower, above it for Upper) is computed straight
//     into C, tiles of up to 3 vectors of rows (beta == 0 does not read C,
//     as BLAS).
//
// Blocks of 8 columns waste no flops off the diagonal block, and starting
// each block's rows at the diagonal keeps the tiles tall: at n = 32 seven
// tiles of 2560 vector multiply-adds, against 3072 for 16-column blocks
// built from simd.Gemm with a scalar copy of each 16 x 16 diagonal block.
//
// With prefetch, matrix i+1 is prefetched a block's share at a time, so
// the hints are spread over the work instead of queuing in one burst: at
// small orders the batch streams from memory, the hardware prefetcher
// does not cross from one matrix to the next in time, and without the
// hints n = k = 32 batch = 8192 took twice as long (Zen 5). Tile calls
// over several matrices at once (the tile's count) saved the Go work
// around each call on a batch in cache but were slower on one that
// streams from memory, as were streaming stores of C: both are left out.
func syrkTile[T batchlas.Float](p *problem[T], i int, prefetch bool, s []T) {
	n, k, lda, ldc := p.n, p.k, p.a.LD, p.c.LD
	a, c := p.a.Data[i*p.a.Stride:], p.c.Data[i*p.c.Stride:]
	tileRows := 3 * simd.Lanes[T]()
	var diag [simd.Cols * simd.Cols]T
	depth := k
	if p.trans {
		depth = min(k, transDepth)
	}
	for l0 := 0; l0 < k; l0 += depth {
		kd := min(depth, k-l0)
		// op(A)[:, l0:l0+kd] as the tile's A operand (rows contiguous),
		// and op(A)^T's rows l0.. as its B: element (l, j) of op(A)^T is
		// a[(l0+l)*lda+j] for NoTrans, a[j*lda+l0+l] for Trans.
		opA, ldA, b := a, lda, a // NoTrans: one pass, l0 = 0
		if p.trans {
			simd.Transpose(s, n, a[l0:], lda, n, kd)
			opA, ldA, b = s, n, a[l0:]
		}
		ab := [2]T{p.alpha, p.beta}
		if l0 > 0 {
			ab[1] = 1
		}
		diagAB := [2]T{p.alpha, 0}
		for j0 := 0; j0 < n; j0 += simd.Cols {
			if prefetch && l0 == 0 {
				prefetchShare(p, i+1, j0)
			}
			bj, bsl, boff, nc := simd.ColumnsOfB(!p.trans, b, lda, n, j0)
			simd.Tile(kd, opA[j0:], ldA, bj, bsl, &boff, diag[:], simd.Cols, nc, nc, &diagAB, false, 1, 0, 0, 0)
			addTriangle(p.lower, nc, diag[:], c[j0*ldc+j0:], ldc, ab[1])
			r0, r1 := j0+nc, n // Lower: the rows below the diagonal block
			if !p.lower {
				r0, r1 = 0, j0
			}
			for i0 := r0; i0 < r1; i0 += tileRows {
				rows := min(tileRows, r1-i0)
				simd.Tile(kd, opA[i0:], ldA, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, ab[1] != 0, 1, 0, 0, 0)
			}
		}
	}
}

// addTriangle stores the uplo triangle of the nb x nb product d (leading
// dimension simd.Cols) into the diagonal block c (leading dimension ldc):
// c = d + beta*c there, c not read for beta == 0.
func addTriangle[T batchlas.Float](lower bool, nb int, d []T, c []T, ldc int, beta T) {
	for j := range nb {
		lo, hi := 0, j+1 // Upper: rows 0..j of column j
		if lower {
			lo, hi = j, nb
		}
		col, dc := c[j*ldc+lo:j*ldc+hi], d[j*simd.Cols+lo:j*simd.Cols+hi]
		if beta == 0 {
			for i := range col {
				col[i] = dc[i]
			}
			continue
		}
		for i := range col {
			col[i] = dc[i] + beta*col[i]
		}
	}
}

// prefetchShare asks for the share of matrix i that goes with column
// block j0: the block's columns of C's uplo triangle and an equal share
// of A's columns (k columns of n for NoTrans, the block's n columns of k
// for Trans).
func prefetchShare[T batchlas.Float](p *problem[T], i, j0 int) {
	n, k, lda, ldc := p.n, p.k, p.a.LD, p.c.LD
	a, c := p.a.Data[i*p.a.Stride:], p.c.Data[i*p.c.Stride:]
	nc := min(simd.Cols, n-j0)
	if p.lower {
		simd.Prefetch(c[j0*ldc+j0:], n-j0, ldc, nc, 1)
	} else {
		simd.Prefetch(c[j0*ldc:], j0+nc, ldc, nc, 0)
	}
	if p.trans {
		simd.Prefetch(a[j0*lda:], k, lda, nc, 0)
		return
	}
	blocks := (n + simd.Cols - 1) / simd.Cols
	bi := j0 / simd.Cols
	if l0, l1 := bi*k/blocks, (bi+1)*k/blocks; l1 > l0 {
		simd.Prefetch(a[l0*lda:], n, lda, l1-l0, 0)
	}
}

// scaleTriangle sets the uplo triangle of the n x n C (leading dimension
// ldc) to beta*C: zero for beta == 0 (C not read, as BLAS), nothing to do
// for beta == 1.
func scaleTriangle[T batchlas.Float](lower bool, n int, beta T, c []T, ldc int) {
	if beta == 1 {
		return
	}
	for j := range n {
		lo, hi := 0, j+1
		if lower {
			lo, hi = j, n
		}
		col := c[j*ldc+lo : j*ldc+hi]
		if beta == 0 {
			clear(col)
			continue
		}
		for i := range col {
			col[i] *= beta
		}
	}
}
