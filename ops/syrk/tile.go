package syrk

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// tileBlock is the width of the blocks of columns the tile kernel takes:
// the vector tile's columns (simd.Cols) twice, so that the rectangle off
// the diagonal is a product of whole tiles and the diagonal block, whose
// other triangle is wasted work, stays small.
const tileBlock = 2 * simd.Cols

// tileSlot is the tile kernel's per-worker scratch: one diagonal block.
func tileSlot(n int) int {
	b := min(n, tileBlock)
	return b * b
}

// syrkTile computes the uplo triangle of C := alpha*op(A)*op(A)^T +
// beta*C for one n x n C (leading dimension ldc) from op(A) n x k (A n x k
// with leading dimension lda for NoTrans, k x n for Trans), k >= 1 and
// alpha != 0, a block of tileBlock columns at a time:
//
//   - the rectangle of the block's columns on the uplo side of its
//     diagonal block (below it for Lower, above it for Upper) is
//     alpha*op(A)[rows]*op(A)[block]^T + beta*C there, one simd.Gemm
//     (beta == 0 does not read C, as BLAS);
//   - the diagonal block is computed whole into s (its square, tileSlot
//     elements) and only its uplo triangle is added to beta*C there.
//
// Nothing outside the uplo triangle of C is read or written.
func syrkTile[T batchlas.Float](lower, trans bool, n, k int, alpha T, a []T, lda int, beta T, c []T, ldc int, s []T) {
	// rowsOf is op(A)'s rows r0.. as simd.Gemm's operand: for NoTrans the
	// rows of A (offset r0), for Trans the columns of A (offset r0*lda).
	rowsOf := func(r0 int) []T {
		if trans {
			return a[r0*lda:]
		}
		return a[r0:]
	}
	for j0 := 0; j0 < n; j0 += tileBlock {
		jb := min(tileBlock, n-j0)
		// The diagonal block, whole, into s (leading dimension jb).
		simd.Gemm(trans, !trans, jb, jb, k, alpha, rowsOf(j0), lda, rowsOf(j0), lda, 0, s, jb)
		for j := range jb {
			lo, hi := 0, j+1 // Upper: rows 0..j of the block's column j
			if lower {
				lo, hi = j, jb
			}
			col := c[(j0+j)*ldc+j0:]
			sc := s[j*jb:]
			for i := lo; i < hi; i++ {
				if beta == 0 {
					col[i] = sc[i]
				} else {
					col[i] = sc[i] + beta*col[i]
				}
			}
		}
		// The rectangle beside it.
		if lower {
			if r0 := j0 + jb; r0 < n {
				simd.Gemm(trans, !trans, n-r0, jb, k, alpha, rowsOf(r0), lda, rowsOf(j0), lda, beta, c[j0*ldc+r0:], ldc)
			}
		} else if j0 > 0 {
			simd.Gemm(trans, !trans, j0, jb, k, alpha, rowsOf(0), lda, rowsOf(j0), lda, beta, c[j0*ldc:], ldc)
		}
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
