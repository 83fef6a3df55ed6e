package getri

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/tri"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// invert overwrites the LU factor in a (n x n, leading dimension lda,
// A = P*L*U as getrf leaves it: L unit lower, U upper) with inv(A), as
// LAPACK's xGETRI does it; piv holds getrf's 0-based pivots and work
// n*min(n, invBlock) elements. U's diagonal must be free of zeros and
// NaN (the caller checks it: the info codes are the op's, not the
// kernel's).
//
//  1. inv(U) in place, a column at a time (tri.Inverse, LAPACK's xTRTI2).
//     (xTRTRI's blocked form, its off-diagonal products on the vector
//     tile, was slower at every order up to 128: its triangular blocks
//     are most of the work there.)
//  2. inv(A)*L = inv(U) solved for inv(A) from the last column to the
//     first: column j of inv(A) is column j of inv(U) minus the columns
//     of inv(A) right of it times L's column j below the diagonal (which
//     is moved to work and zeroed first, since inv(A) overwrites it).
//     A block of invBlock columns at a time (solveL): the product with
//     the columns right of the block is one matrix product on the vector
//     tile (simd.Gemm), the rest a column at a time within the block.
//  3. inv(A) = inv(U) inv(L) P^T: the columns are interchanged as the
//     pivots say, last first.
//
// Steps 1 and 2's column products are axpys (vec.Axpy, one fused
// multiply-add per entry). About 4n^3/3 flops, n^3 of them step 2's.
func invert[T batchlas.Float](n int, a []T, lda int, piv []int32, work []T) {
	if n <= shortOrder {
		invertShort(n, a, lda, piv, work)
		return
	}
	tri.Inverse(false, n, a, lda)
	solveL(n, a, lda, work)
	swapColumns(n, a, lda, piv)
}

// shortOrder is the largest order invert runs as plain loops: below it a
// column is shorter than two vectors, and the calls into internal/vec
// cost more than their arithmetic (order 8 took three times as long
// through them).
const shortOrder = 16

// invertShort is invert's three steps as plain loops, the same operations
// in the same order but for the fused multiply-adds (the compiler does not
// fuse x += t*y in Go; the results are within the same bounds).
func invertShort[T batchlas.Float](n int, a []T, lda int, piv []int32, work []T) {
	for j := range n {
		col := a[j*lda : j*lda+j+1]
		col[j] = 1 / col[j]
		ajj := -col[j]
		for c := range j {
			t := col[c]
			uc := a[c*lda : c*lda+c+1]
			for i, u := range uc[:c] {
				col[i] += t * u
			}
			col[c] = t * uc[c]
		}
		for c := range j {
			col[c] *= ajj
		}
	}
	for j := n - 2; j >= 0; j-- {
		col := a[j*lda : j*lda+n]
		w := work[:n]
		for i := j + 1; i < n; i++ {
			w[i] = col[i]
			col[i] = 0
		}
		for k := j + 1; k < n; k++ {
			t := -w[k]
			ck := a[k*lda : k*lda+n]
			for i, x := range ck {
				col[i] += t * x
			}
		}
	}
	swapColumns(n, a, lda, piv)
}

// invBlock is the width of the blocks of columns solveL takes at once: the
// product with the columns right of a block is n x invBlock x (n - j) on
// the vector tile, whose 16 columns a block of 32 fills twice.
const invBlock = 32

// solveL is invert's step 2 on a (n x n, leading dimension lda) holding
// inv(U) on and above the diagonal and L's columns below it: a becomes
// inv(A)*P, the unpermuted inverse. work holds n*min(n, invBlock)
// elements: the block of L's columns set aside (leading dimension n).
func solveL[T batchlas.Float](n int, a []T, lda int, work []T) {
	nb := min(n, invBlock)
	// The blocks from the right: the last one may be narrower.
	for j := ((n - 1) / nb) * nb; j >= 0; j -= nb {
		jb := min(nb, n-j)
		// L's columns j .. j+jb-1, below the diagonal, to work (column
		// c-j of work, rows as in a); zeros in their place.
		for c := j; c < j+jb; c++ {
			col := a[c*lda : c*lda+n]
			w := work[(c-j)*n : (c-j)*n+n]
			for i := c + 1; i < n; i++ {
				w[i] = col[i]
				col[i] = 0
			}
		}
		// a[:, j:j+jb] -= a[:, j+jb:n] * L[j+jb:n, j:j+jb].
		if j+jb < n {
			simd.Gemm(false, false, n, jb, n-j-jb, -1, a[(j+jb)*lda:], lda, work[j+jb:], n, 1, a[j*lda:], lda)
		}
		// Within the block, from its last column: column c minus the
		// block's columns right of it times L's entries in column c.
		for c := j + jb - 2; c >= j; c-- {
			col := a[c*lda : c*lda+n]
			w := work[(c-j)*n:]
			k := c + 1
			for ; k+4 <= j+jb; k += 4 {
				// Four columns in one pass (vec.Axpy4), the same
				// operations in the same order as one at a time.
				x := [4]T{-w[k], -w[k+1], -w[k+2], -w[k+3]}
				vec.Axpy4(&x, a[k*lda:], a[(k+1)*lda:], a[(k+2)*lda:], a[(k+3)*lda:], col)
			}
			for ; k < j+jb; k++ {
				vec.Axpy(-w[k], a[k*lda:k*lda+n], col)
			}
		}
	}
}

// swapColumns is invert's step 3: inv(A) = inv(U) inv(L) P^T, the columns
// of a (n x n, leading dimension lda) interchanged as getrf's pivots piv
// say, last first.
func swapColumns[T batchlas.Float](n int, a []T, lda int, piv []int32) {
	for j := n - 2; j >= 0; j-- {
		if p := int(piv[j]); p != j {
			x, y := a[j*lda:j*lda+n], a[p*lda:p*lda+n]
			for i := range x {
				x[i], y[i] = y[i], x[i]
			}
		}
	}
}
