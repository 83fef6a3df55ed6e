// Package lusolve solves one system with an LU factor in place: the
// per-matrix kernel of getrs's permatrix family and of gesv's fused one,
// and the row interchanges every getrs kernel applies to B.
//
// The factor is what getrf leaves: A = P*L*U in one column-major n x n
// matrix a with leading dimension lda, L unit lower triangular below the
// diagonal (its unit diagonal not stored), U upper triangular on and above
// it, and 0-based pivots: for j = 0 .. n-1 in order, row j was interchanged
// with row piv[j]. Callers validate the pivots (j <= piv[j] < n) before any
// kernel runs; the kernels index with them unchecked.
//
// B is n x nrhs, column-major with leading dimension ldb, overwritten by X.
// A zero (or NaN) on U's diagonal gives Inf or NaN in X by IEEE
// arithmetic; nothing is skipped for a zero entry of X, so 0*Inf spreads
// NaN as it would in any other order.
package lusolve

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// panel is the number of columns of B solved together: each element of
// the factor loaded from memory serves four multiply-adds held in
// registers, and 4 accumulators, a coefficient and a product fit the 16
// SSE registers of amd64 with room to spare.
const panel = 4

// Forward applies the interchanges piv[0:n] in order (row j with row
// piv[j]) to the nrhs columns of b: B := P^T * B, LAPACK's laswp with a
// positive increment. One column at a time, so each column is read once,
// contiguously.
func Forward[T batchlas.Float](b []T, ldb, n, nrhs int, piv []int32) {
	piv = piv[:n]
	for c := 0; c < nrhs; c++ {
		col := b[c*ldb : c*ldb+n]
		for j, p := range piv {
			if int(p) != j {
				col[j], col[p] = col[p], col[j]
			}
		}
	}
}

// Backward applies the interchanges in reverse order, j = n-1 down to 0:
// B := P * B, the inverse of Forward.
func Backward[T batchlas.Float](b []T, ldb, n, nrhs int, piv []int32) {
	piv = piv[:n]
	for c := 0; c < nrhs; c++ {
		col := b[c*ldb : c*ldb+n]
		for j := n - 1; j >= 0; j-- {
			if p := int(piv[j]); p != j {
				col[j], col[p] = col[p], col[j]
			}
		}
	}
}

// Solve overwrites B with op(A)^-1 * B, where op(A) is A (trans false) or
// A^T (trans true) and A = P*L*U is the factor in a with pivots piv:
//
//	A   X = B:  Y = P^T*B, L*Z = Y, U*X = Z
//	A^T X = B:  U^T*Z = B, L^T*Y = Z, X = P*Y
//
// From order 2*simd.TriBlock on, each step is simd.TriSolve's blocked
// solve, whose off-diagonal products run on the vector tile. Below that,
// B goes through in panels of four columns, each panel through all three
// steps before the next, so the panel stays in L1 while the factor is
// streamed over it twice; the last nrhs%4 columns go one at a time.
// Every step is column-oriented on a, whose columns are contiguous: the
// NoTrans solves subtract a multiple of a column of L or U from B (axpy),
// the Trans solves take the dot product of a column with the solved part
// of B. Diagonal entries of U are divided by, not inverted, as LAPACK's
// trsm does.
func Solve[T batchlas.Float](trans bool, a []T, lda, n int, piv []int32, b []T, ldb, nrhs int) {
	if n == 0 {
		return
	}
	a = a[:(n-1)*lda+n]
	piv = piv[:n]
	if simd.TriWorth(n) {
		// Orders with off-diagonal blocks: the blocked solves, most of
		// their work on the vector tile.
		if trans {
			simd.TriSolve(true, true, false, n, a, lda, b, ldb, nrhs)
			simd.TriSolve(false, true, true, n, a, lda, b, ldb, nrhs)
			Backward(b, ldb, n, nrhs, piv)
			return
		}
		Forward(b, ldb, n, nrhs, piv)
		simd.TriSolve(false, false, true, n, a, lda, b, ldb, nrhs)
		simd.TriSolve(true, false, false, n, a, lda, b, ldb, nrhs)
		return
	}
	c := 0
	for ; c+panel <= nrhs; c += panel {
		b0 := b[c*ldb : c*ldb+n]
		b1 := b[(c+1)*ldb : (c+1)*ldb+n]
		b2 := b[(c+2)*ldb : (c+2)*ldb+n]
		b3 := b[(c+3)*ldb : (c+3)*ldb+n]
		if trans {
			solveT4(a, lda, n, piv, b0, b1, b2, b3)
		} else {
			solveN4(a, lda, n, piv, b0, b1, b2, b3)
		}
	}
	for ; c < nrhs; c++ {
		b0 := b[c*ldb : c*ldb+n]
		if trans {
			solveT1(a, lda, n, piv, b0)
		} else {
			solveN1(a, lda, n, piv, b0)
		}
	}
}

// solveN4 solves A*X = B for four columns of B, each of length n.
func solveN4[T batchlas.Float](a []T, lda, n int, piv []int32, b0, b1, b2, b3 []T) {
	for j, p := range piv {
		if int(p) != j {
			b0[j], b0[p] = b0[p], b0[j]
			b1[j], b1[p] = b1[p], b1[j]
			b2[j], b2[p] = b2[p], b2[j]
			b3[j], b3[p] = b3[p], b3[j]
		}
	}
	// L*Z = Y, forward: z_k is final once the columns before k were
	// subtracted; subtract z_k times column k of L from the rows below.
	for k := 0; k < n-1; k++ {
		x0, x1, x2, x3 := b0[k], b1[k], b2[k], b3[k]
		l := a[k*lda+k+1 : k*lda+n]
		t0, t1, t2, t3 := b0[k+1:n], b1[k+1:n], b2[k+1:n], b3[k+1:n]
		t0, t1, t2, t3 = t0[:len(l)], t1[:len(l)], t2[:len(l)], t3[:len(l)]
		for i, v := range l {
			t0[i] -= v * x0
			t1[i] -= v * x1
			t2[i] -= v * x2
			t3[i] -= v * x3
		}
	}
	// U*X = Z, backward: divide by the diagonal, then subtract x_k times
	// column k of U from the rows above.
	for k := n - 1; k >= 0; k-- {
		d := a[k*lda+k]
		x0, x1, x2, x3 := b0[k]/d, b1[k]/d, b2[k]/d, b3[k]/d
		b0[k], b1[k], b2[k], b3[k] = x0, x1, x2, x3
		u := a[k*lda : k*lda+k]
		t0, t1, t2, t3 := b0[:len(u)], b1[:len(u)], b2[:len(u)], b3[:len(u)]
		for i, v := range u {
			t0[i] -= v * x0
			t1[i] -= v * x1
			t2[i] -= v * x2
			t3[i] -= v * x3
		}
	}
}

// solveN1 is solveN4 for one column.
func solveN1[T batchlas.Float](a []T, lda, n int, piv []int32, b0 []T) {
	for j, p := range piv {
		if int(p) != j {
			b0[j], b0[p] = b0[p], b0[j]
		}
	}
	for k := 0; k < n-1; k++ {
		x0 := b0[k]
		l := a[k*lda+k+1 : k*lda+n]
		t0 := b0[k+1 : n]
		t0 = t0[:len(l)]
		for i, v := range l {
			t0[i] -= v * x0
		}
	}
	for k := n - 1; k >= 0; k-- {
		x0 := b0[k] / a[k*lda+k]
		b0[k] = x0
		u := a[k*lda : k*lda+k]
		t0 := b0[:len(u)]
		for i, v := range u {
			t0[i] -= v * x0
		}
	}
}

// solveT4 solves A^T*X = B for four columns of B.
func solveT4[T batchlas.Float](a []T, lda, n int, piv []int32, b0, b1, b2, b3 []T) {
	// U^T*Z = B, forward: z_k = (b_k - U(0:k, k) . z(0:k)) / U(k, k), the
	// dot product down the contiguous column k of U.
	for k := 0; k < n; k++ {
		u := a[k*lda : k*lda+k]
		h0, h1, h2, h3 := b0[:len(u)], b1[:len(u)], b2[:len(u)], b3[:len(u)]
		s0, s1, s2, s3 := b0[k], b1[k], b2[k], b3[k]
		for i, v := range u {
			s0 -= v * h0[i]
			s1 -= v * h1[i]
			s2 -= v * h2[i]
			s3 -= v * h3[i]
		}
		d := a[k*lda+k]
		b0[k], b1[k], b2[k], b3[k] = s0/d, s1/d, s2/d, s3/d
	}
	// L^T*Y = Z, backward: y_k = z_k - L(k+1:n, k) . y(k+1:n), down the
	// contiguous column k of L (unit diagonal).
	for k := n - 2; k >= 0; k-- {
		l := a[k*lda+k+1 : k*lda+n]
		h0, h1, h2, h3 := b0[k+1:n], b1[k+1:n], b2[k+1:n], b3[k+1:n]
		h0, h1, h2, h3 = h0[:len(l)], h1[:len(l)], h2[:len(l)], h3[:len(l)]
		s0, s1, s2, s3 := b0[k], b1[k], b2[k], b3[k]
		for i, v := range l {
			s0 -= v * h0[i]
			s1 -= v * h1[i]
			s2 -= v * h2[i]
			s3 -= v * h3[i]
		}
		b0[k], b1[k], b2[k], b3[k] = s0, s1, s2, s3
	}
	// X = P*Y: the interchanges in reverse order.
	for j := n - 1; j >= 0; j-- {
		if p := int(piv[j]); p != j {
			b0[j], b0[p] = b0[p], b0[j]
			b1[j], b1[p] = b1[p], b1[j]
			b2[j], b2[p] = b2[p], b2[j]
			b3[j], b3[p] = b3[p], b3[j]
		}
	}
}

// solveT1 is solveT4 for one column.
func solveT1[T batchlas.Float](a []T, lda, n int, piv []int32, b0 []T) {
	for k := 0; k < n; k++ {
		u := a[k*lda : k*lda+k]
		h0 := b0[:len(u)]
		s0 := b0[k]
		for i, v := range u {
			s0 -= v * h0[i]
		}
		b0[k] = s0 / a[k*lda+k]
	}
	for k := n - 2; k >= 0; k-- {
		l := a[k*lda+k+1 : k*lda+n]
		h0 := b0[k+1 : n]
		h0 = h0[:len(l)]
		s0 := b0[k]
		for i, v := range l {
			s0 -= v * h0[i]
		}
		b0[k] = s0
	}
	for j := n - 1; j >= 0; j-- {
		if p := int(piv[j]); p != j {
			b0[j], b0[p] = b0[p], b0[j]
		}
	}
}
