// Package chol holds the per-matrix Cholesky kernels that the potrs and
// posv ops share: the two substitutions of a solve with a factor, and an
// unblocked factorisation for posv's fused family. Each function works on
// one column-major matrix and touches only the triangle it names; the ops
// spread a batch over workers and choose between these and their other
// families.
//
// Every loop runs down contiguous column pieces (the factor's and B's), so
// bounds checks are hoisted and the caches stream: a lower factor is read
// by columns in axpy form on the way down and in dot form on the way up,
// an upper factor the other way round (its columns are the rows of
// U^T = L). Four right-hand sides go together, so each element of the
// factor loaded from cache feeds four multiply-adds; the last nrhs%4
// columns go one at a time.
//
// Diagonal entries are divided by, not inverted once and multiplied: the
// results then round as LAPACK's reference substitution does, and a zero
// or NaN diagonal gives Inf or NaN as a division does. Nothing here
// checks for them: callers that need a verdict (a factorisation) test the
// pivot with !(d > 0), which NaN fails.
package chol

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// FactorLower factors the lower triangle of the n x n matrix m (leading
// dimension ld) in place as L*L^T, left-looking: column j is updated by
// every column left of it (four at a time, an axpy down the contiguous
// column; from order 32 on, by panels whose products run on the vector
// tile), then its pivot is tested and the column scaled. It returns 0,
// or LAPACK's info: the order (from 1) of the first leading minor that is
// not positive definite (a pivot that is not > 0, NaN included), leaving
// the columns from that one on partly updated. The upper triangle is
// neither read nor written.
func FactorLower[T batchlas.Float](m []T, ld, n int) int {
	if !simd.TriWorth(n) {
		return factorLowerCols(m, ld, n, 0, n)
	}
	// Left-looking by panels of simd.TriBlock columns: each panel is first
	// updated by every column left of it (its diagonal block's lower
	// triangle in Go, the rows below on the vector tile), then factored
	// column by column within itself.
	for j0 := 0; j0 < n; j0 += simd.TriBlock {
		j1 := min(j0+simd.TriBlock, n)
		for j := j0; j < j1; j++ {
			cj := m[j*ld+j : j*ld+j1]
			for k := 0; k < j0; k++ {
				s := m[k*ld+j : k*ld+j1]
				s = s[:len(cj)]
				p := s[0]
				for r, x := range s {
					cj[r] -= p * x
				}
			}
		}
		if j0 > 0 && j1 < n {
			simd.Gemm(false, true, n-j1, j1-j0, j0, -1, m[j1:], ld, m[j0:], ld, 1, m[j0*ld+j1:], ld)
		}
		if f := factorLowerCols(m, ld, n, j0, j1); f != 0 {
			return f
		}
	}
	return 0
}

// factorLowerCols is FactorLower's column loop on columns [j0, j1), each
// updated by the columns from j0 on left of it (the earlier ones are
// already applied).
func factorLowerCols[T batchlas.Float](m []T, ld, n, j0, j1 int) int {
	for j := j0; j < j1; j++ {
		cj := m[j*ld+j : j*ld+n] // column j from the diagonal down
		k := j0
		for ; k+4 <= j; k += 4 {
			s0 := m[k*ld+j : k*ld+n]
			s1 := m[(k+1)*ld+j : (k+1)*ld+n]
			s2 := m[(k+2)*ld+j : (k+2)*ld+n]
			s3 := m[(k+3)*ld+j : (k+3)*ld+n]
			s0, s1, s2, s3 = s0[:len(cj)], s1[:len(cj)], s2[:len(cj)], s3[:len(cj)]
			p0, p1, p2, p3 := s0[0], s1[0], s2[0], s3[0] // L(j, k..k+3)
			for r, x0 := range s0 {
				cj[r] -= p0*x0 + p1*s1[r] + p2*s2[r] + p3*s3[r]
			}
		}
		for ; k < j; k++ {
			s0 := m[k*ld+j : k*ld+n]
			s0 = s0[:len(cj)]
			p0 := s0[0]
			for r, x0 := range s0 {
				cj[r] -= p0 * x0
			}
		}
		d := cj[0]
		if !(d > 0) {
			return j + 1
		}
		d = T(math.Sqrt(float64(d)))
		cj[0] = d
		for r := 1; r < len(cj); r++ {
			cj[r] /= d
		}
	}
	return 0
}

// FactorUpper factors the upper triangle of the n x n matrix m (leading
// dimension ld) in place as U^T*U, column by column: U(i, j) for i < j is
// a dot product of the contiguous pieces U(0:i, i) and U(0:i, j), then the
// pivot U(j, j) is tested. It returns 0 or LAPACK's info as FactorLower
// does; the lower triangle is neither read nor written.
func FactorUpper[T batchlas.Float](m []T, ld, n int) int {
	for j := 0; j < n; j++ {
		cj := m[j*ld : j*ld+j+1] // column j down to the diagonal
		for i := 0; i < j; i++ {
			ci := m[i*ld : i*ld+i+1]
			cj[i] = (cj[i] - dot(ci[:i], cj[:i])) / ci[i]
		}
		d := cj[j] - dot(cj[:j], cj[:j])
		if !(d > 0) {
			return j + 1
		}
		cj[j] = T(math.Sqrt(float64(d)))
	}
	return 0
}

// dot is sum x[k]*y[k] over len(x) <= len(y), in two interleaved partial
// sums so that consecutive multiply-adds do not wait on each other.
func dot[T batchlas.Float](x, y []T) T {
	y = y[:len(x)]
	var s0, s1 T
	k := 0
	for ; k+2 <= len(x); k += 2 {
		s0 += x[k] * y[k]
		s1 += x[k+1] * y[k+1]
	}
	if k < len(x) {
		s0 += x[k] * y[k]
	}
	return s0 + s1
}

// SolveLower overwrites the n x nrhs matrix b (leading dimension ldb) with
// (L*L^T)^-1 * b, L the lower triangle of a (leading dimension lda) as
// FactorLower or potrf writes it: L*Y = B forward, then L^T*X = Y
// backward. Only a's lower triangle is read.
func SolveLower[T batchlas.Float](a []T, lda, n int, b []T, ldb, nrhs int) {
	if simd.TriWorth(n) {
		// Orders with off-diagonal blocks: blocked, mostly on the vector
		// tile.
		simd.TriSolve(false, false, false, n, a, lda, b, ldb, nrhs)
		simd.TriSolve(false, true, false, n, a, lda, b, ldb, nrhs)
		return
	}
	j := 0
	for ; j+4 <= nrhs; j += 4 {
		b0 := b[j*ldb : j*ldb+n]
		b1 := b[(j+1)*ldb : (j+1)*ldb+n]
		b2 := b[(j+2)*ldb : (j+2)*ldb+n]
		b3 := b[(j+3)*ldb : (j+3)*ldb+n]
		// L*Y = B: each solved y(k) is swept down column k of L.
		for k := 0; k < n; k++ {
			col := a[k*lda+k : k*lda+n]
			d := col[0]
			y0, y1, y2, y3 := b0[k]/d, b1[k]/d, b2[k]/d, b3[k]/d
			b0[k], b1[k], b2[k], b3[k] = y0, y1, y2, y3
			col = col[1:]
			r0, r1, r2, r3 := b0[k+1:], b1[k+1:], b2[k+1:], b3[k+1:]
			r0, r1, r2, r3 = r0[:len(col)], r1[:len(col)], r2[:len(col)], r3[:len(col)]
			for r, l := range col {
				r0[r] -= l * y0
				r1[r] -= l * y1
				r2[r] -= l * y2
				r3[r] -= l * y3
			}
		}
		// L^T*X = Y: x(i) is y(i) less column i of L below the diagonal
		// dotted with the x already solved beneath it.
		for i := n - 1; i >= 0; i-- {
			col := a[i*lda+i : i*lda+n]
			d := col[0]
			col = col[1:]
			x0, x1, x2, x3 := b0[i+1:], b1[i+1:], b2[i+1:], b3[i+1:]
			x0, x1, x2, x3 = x0[:len(col)], x1[:len(col)], x2[:len(col)], x3[:len(col)]
			s0, s1, s2, s3 := b0[i], b1[i], b2[i], b3[i]
			for r, l := range col {
				s0 -= l * x0[r]
				s1 -= l * x1[r]
				s2 -= l * x2[r]
				s3 -= l * x3[r]
			}
			b0[i], b1[i], b2[i], b3[i] = s0/d, s1/d, s2/d, s3/d
		}
	}
	for ; j < nrhs; j++ {
		b0 := b[j*ldb : j*ldb+n]
		for k := 0; k < n; k++ {
			col := a[k*lda+k : k*lda+n]
			y0 := b0[k] / col[0]
			b0[k] = y0
			col = col[1:]
			r0 := b0[k+1:]
			r0 = r0[:len(col)]
			for r, l := range col {
				r0[r] -= l * y0
			}
		}
		for i := n - 1; i >= 0; i-- {
			col := a[i*lda+i : i*lda+n]
			d := col[0]
			col = col[1:]
			x0 := b0[i+1:]
			x0 = x0[:len(col)]
			s0 := b0[i]
			for r, l := range col {
				s0 -= l * x0[r]
			}
			b0[i] = s0 / d
		}
	}
}

// SolveUpper overwrites the n x nrhs matrix b (leading dimension ldb) with
// (U^T*U)^-1 * b, U the upper triangle of a (leading dimension lda) as
// FactorUpper or potrf writes it: U^T*Y = B forward (dot form down the
// columns of U), then U*X = Y backward (axpy form). Only a's upper
// triangle is read.
func SolveUpper[T batchlas.Float](a []T, lda, n int, b []T, ldb, nrhs int) {
	if simd.TriWorth(n) {
		simd.TriSolve(true, true, false, n, a, lda, b, ldb, nrhs)
		simd.TriSolve(true, false, false, n, a, lda, b, ldb, nrhs)
		return
	}
	j := 0
	for ; j+4 <= nrhs; j += 4 {
		b0 := b[j*ldb : j*ldb+n]
		b1 := b[(j+1)*ldb : (j+1)*ldb+n]
		b2 := b[(j+2)*ldb : (j+2)*ldb+n]
		b3 := b[(j+3)*ldb : (j+3)*ldb+n]
		// U^T*Y = B: y(i) is b(i) less U(0:i, i) dotted with y(0:i).
		for i := 0; i < n; i++ {
			col := a[i*lda : i*lda+i+1]
			d := col[i]
			col = col[:i]
			y0, y1, y2, y3 := b0[:len(col)], b1[:len(col)], b2[:len(col)], b3[:len(col)]
			s0, s1, s2, s3 := b0[i], b1[i], b2[i], b3[i]
			for r, u := range col {
				s0 -= u * y0[r]
				s1 -= u * y1[r]
				s2 -= u * y2[r]
				s3 -= u * y3[r]
			}
			b0[i], b1[i], b2[i], b3[i] = s0/d, s1/d, s2/d, s3/d
		}
		// U*X = Y: each solved x(k) is swept up column k of U.
		for k := n - 1; k >= 0; k-- {
			col := a[k*lda : k*lda+k+1]
			d := col[k]
			x0, x1, x2, x3 := b0[k]/d, b1[k]/d, b2[k]/d, b3[k]/d
			b0[k], b1[k], b2[k], b3[k] = x0, x1, x2, x3
			col = col[:k]
			r0, r1, r2, r3 := b0[:len(col)], b1[:len(col)], b2[:len(col)], b3[:len(col)]
			for r, u := range col {
				r0[r] -= u * x0
				r1[r] -= u * x1
				r2[r] -= u * x2
				r3[r] -= u * x3
			}
		}
	}
	for ; j < nrhs; j++ {
		b0 := b[j*ldb : j*ldb+n]
		for i := 0; i < n; i++ {
			col := a[i*lda : i*lda+i+1]
			d := col[i]
			col = col[:i]
			y0 := b0[:len(col)]
			s0 := b0[i]
			for r, u := range col {
				s0 -= u * y0[r]
			}
			b0[i] = s0 / d
		}
		for k := n - 1; k >= 0; k-- {
			col := a[k*lda : k*lda+k+1]
			x0 := b0[k] / col[k]
			b0[k] = x0
			col = col[:k]
			r0 := b0[:len(col)]
			for r, u := range col {
				r0[r] -= u * x0
			}
		}
	}
}

// Solve is SolveLower or SolveUpper as uplo says.
func Solve[T batchlas.Float](uplo batchlas.Uplo, a []T, lda, n int, b []T, ldb, nrhs int) {
	if uplo == batchlas.Upper {
		SolveUpper(a, lda, n, b, ldb, nrhs)
		return
	}
	SolveLower(a, lda, n, b, ldb, nrhs)
}

// Factor is FactorLower or FactorUpper as uplo says.
func Factor[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int) int {
	if uplo == batchlas.Upper {
		return FactorUpper(m, ld, n)
	}
	return FactorLower(m, ld, n)
}
