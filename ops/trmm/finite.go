package trmm

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// Non-finite B. The tile, gemm and swapped kernels multiply B_i by dense
// copies of op(A_i)'s blocks, zeros off the triangle included, and 0*Inf
// is NaN: an Inf or NaN in B_i would make NaN of entries that BLAS's
// xTRMM, which reads the triangle alone, leaves finite or infinite (L
// lower with ones and B = [1, 2, Inf]: [1, 2, Inf], not [NaN, NaN, Inf]).
// So those kernels check each B_i (finite, one vector pass over data the
// product reads next anyway) and compute a B_i that holds an Inf or NaN
// with trmmTriangle instead, from the triangle alone. A non-finite entry
// of A's triangle needs no such care: the dense copies put zeros only
// beside the triangle, where they meet B's finite entries. The rule
// (docs/guide.md) leaves out a zero of the triangle or of B meeting an
// Inf or NaN, where BLAS implementations differ (gonum's Dtrmm skips a
// zero of B in some cases and a zero of A in others); trmmTriangle skips
// nothing.

// finiteGo is finite's Go loop: the sum of x - x, 0 when every element is
// finite and NaN otherwise, over four accumulators.
func finiteGo[T batchlas.Float](x []T, rows, cols, ld int) bool {
	var s0, s1, s2, s3 T
	for c := range cols {
		col := x[c*ld : c*ld+rows]
		i := 0
		for ; i+4 <= rows; i += 4 {
			s0 += col[i] - col[i]
			s1 += col[i+1] - col[i+1]
			s2 += col[i+2] - col[i+2]
			s3 += col[i+3] - col[i+3]
		}
		for ; i < rows; i++ {
			s0 += col[i] - col[i]
		}
	}
	s := s0 + s1 + s2 + s3
	return s == s
}

// trmmTriangle computes B := alpha*op(A)*B (left) or alpha*B*op(A) for one
// B (leading dimension ldb; t x r for left, r x t for right) and one t x t
// triangle A (leading dimension lda), element by element, reading only
// A's uplo triangle and its diagonal only when it is not a unit one:
// each entry is alpha times the sum of op(A)'s triangle's products with
// B's entries, in place, in the order that reads every entry of B before
// it is overwritten. The kernels' path for a B with an Inf or NaN.
func trmmTriangle[T batchlas.Float](left, lower, trans, unit bool, t, r int, alpha T, a []T, lda int, b []T, ldb int) {
	// op(A)'s (i, k) entry, i and k inside its triangle.
	opA := func(i, k int) T {
		if i == k && unit {
			return 1
		}
		if trans {
			return a[i*lda+k]
		}
		return a[k*lda+i]
	}
	effLower := lower != trans
	if left {
		// Row i of op(A)*B reads rows k <= i of B (op(A) lower) or k >= i
		// (upper): rows last first or first first.
		for j := range r {
			col := b[j*ldb : j*ldb+t]
			for q := range t {
				i, lo, hi := q, q, t
				if effLower {
					i = t - 1 - q
					lo, hi = 0, i+1
				}
				var s T
				for k := lo; k < hi; k++ {
					s += opA(i, k) * col[k]
				}
				col[i] = alpha * s
			}
		}
		return
	}
	// Column j of B*op(A) reads columns k >= j of B (op(A) lower) or
	// k <= j (upper): columns first first or last first.
	for row := range r {
		for q := range t {
			j, lo, hi := q, q, t
			if !effLower {
				j = t - 1 - q
				lo, hi = 0, j+1
			}
			var s T
			for k := lo; k < hi; k++ {
				s += b[k*ldb+row] * opA(k, j)
			}
			b[j*ldb+row] = alpha * s
		}
	}
}

// mendNonFinite recomputes with trmmTriangle each of B_first ..
// B_{first+count-1} whose pristine copy in bc (tight, one after another:
// m x n each, or n x m, B_i^T, when transposed) holds an Inf or NaN, the
// copy going back into B_i first: for kernels that copied B before their
// dense product overwrote it (the tile kernel's groups, the gemm family,
// swapped). One pass over all the copies finds the usual case, none.
func mendNonFinite[T batchlas.Float](p *problem[T], first, count int, bc []T, transposed bool) {
	m, n := p.m, p.n
	mn := m * n
	if finite(bc, count*mn, 1, count*mn) {
		return
	}
	rows, cols := m, n
	if transposed {
		rows, cols = n, m
	}
	for i := range count {
		ci := bc[i*mn : (i+1)*mn]
		if finite(ci, rows, cols, rows) {
			continue
		}
		b := p.b.Data[(first+i)*p.b.Stride:]
		if transposed {
			simd.Transpose(b, p.b.LD, ci, n, m, n)
		} else {
			simd.CopyColumns(b, p.b.LD, ci, m, m, n)
		}
		p.triangle(first + i)
	}
}

// triangle computes B_i of p with trmmTriangle, in place.
func (p *problem[T]) triangle(i int) {
	trmmTriangle(p.side == batchlas.Left, p.uplo == batchlas.Lower, p.ta == batchlas.Trans, p.diag == batchlas.Unit,
		p.t, p.r, p.alpha, p.a.Data[i*p.a.Stride:], p.a.LD, p.b.Data[i*p.b.Stride:], p.b.LD)
}
