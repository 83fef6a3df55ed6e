package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"

	"github.com/batchlas-go/batchlas"
)

// recursiveLeaf is the widest block of columns the recursive kernel
// factors with getf2: narrower blocks make the recursion's overhead (a
// solve, a product and two interchange passes per split) outweigh their
// work. An order up to it is factored by getf2 whole, which is the
// unblocked kernel (twin).
const recursiveLeaf = 8

// recursiveGetrf factors each matrix in place by recursive halving of its
// columns (the shape of LAPACK's getrf2), one worker per matrix: the
// product that updates the right half runs over whole column blocks that
// stay in cache, instead of one rank-1 update per column sweeping the
// whole trailing matrix.
func recursiveGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], info []int32) error {
	small := lu.SafeMin[T]()
	return perMatrix(ctx, a, ipiv, info, func(m []T, ld, n int, piv []int32) {
		recursiveLU(m, ld, n, 0, n, piv, small)
	})
}

// recursiveLU factors columns [c0, c0+nc) of the n x n matrix a, rows
// c0..n-1, whose columns left of c0 are already factored and applied:
//
//  1. the left half [c0, c0+n1), recursively;
//  2. its interchanges applied to the right half;
//  3. U12 = L11^-1 * A12 (L11 unit lower, the left half's diagonal block);
//  4. A22 -= L21 * U12, rows below the left half's block;
//  5. the right half [c0+n1, c0+nc), recursively, rows c0+n1..n-1;
//  6. its interchanges applied to the left half.
//
// Only columns [c0, c0+nc) are touched. Every pivot is chosen on a fully
// updated column, as in getf2.
func recursiveLU[T batchlas.Float](a []T, ld, n, c0, nc int, piv []int32, small T) {
	if nc <= recursiveLeaf {
		lu.Getf2(a, ld, n, c0, c0+nc, c0, c0+nc, piv, small)
		return
	}
	n1 := nc / 2
	mid, end := c0+n1, c0+nc
	recursiveLU(a, ld, n, c0, n1, piv, small)
	lu.Laswp(a, ld, n, mid, end, c0, mid, piv)
	trsmUnitLower(a, ld, c0, mid, mid, end)
	gemmSub(a, ld, n, c0, mid, mid, end)
	recursiveLU(a, ld, n, mid, nc-n1, piv, small)
	lu.Laswp(a, ld, n, c0, mid, mid, end, piv)
}

// trsmUnitLower overwrites rows [r0, r1) of columns [s0, s1) with
// L^-1 times them, L the unit lower triangle of a's diagonal block
// [r0, r1) x [r0, r1): forward substitution down each column.
func trsmUnitLower[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) {
	for k := s0; k < s1; k++ {
		b := a[k*ld+r0 : k*ld+r1]
		for j := range b {
			x := b[j]
			l := a[(r0+j)*ld+r0+j+1 : (r0+j)*ld+r1]
			rest := b[j+1:]
			rest = rest[:len(l)]
			for i, v := range l {
				rest[i] -= v * x
			}
		}
	}
}

// gemmSub subtracts A21 * U12 from A22: rows [r1, n) of columns [s0, s1)
// minus rows [r1, n) of columns [r0, r1) times rows [r0, r1) of columns
// [s0, s1). Target columns go in pairs and source columns in fours, so
// each load of a source element feeds two multiply-adds and each load and
// store of a target element four; every element sums its terms in the same
// groups whichever way the loops are cut (a pair or a single column), so
// the cut changes no rounding.
func gemmSub[T batchlas.Float](a []T, ld, n, r0, r1, s0, s1 int) {
	if r1 >= n {
		return
	}
	k := s0
	for ; k+2 <= s1; k += 2 {
		c0 := a[k*ld+r1 : k*ld+n]
		c1 := a[(k+1)*ld+r1 : (k+1)*ld+n]
		c1 = c1[:len(c0)]
		u0 := a[k*ld+r0 : k*ld+r1]
		u1 := a[(k+1)*ld+r0 : (k+1)*ld+r1]
		u1 = u1[:len(u0)]
		l := 0
		for ; l+4 <= len(u0); l += 4 {
			x0, x1, x2, x3 := gemmSources(a, ld, n, r0+l, r1, len(c0))
			b0, b1, b2, b3 := u0[l], u0[l+1], u0[l+2], u0[l+3]
			d0, d1, d2, d3 := u1[l], u1[l+1], u1[l+2], u1[l+3]
			for i := range c0 {
				y0, y1, y2, y3 := x0[i], x1[i], x2[i], x3[i]
				c0[i] -= y0*b0 + y1*b1 + y2*b2 + y3*b3
				c1[i] -= y0*d0 + y1*d1 + y2*d2 + y3*d3
			}
		}
		for ; l < len(u0); l++ {
			x := a[(r0+l)*ld+r1 : (r0+l)*ld+n]
			x = x[:len(c0)]
			b, d := u0[l], u1[l]
			for i, y := range x {
				c0[i] -= y * b
				c1[i] -= y * d
			}
		}
	}
	if k < s1 {
		c := a[k*ld+r1 : k*ld+n]
		u := a[k*ld+r0 : k*ld+r1]
		l := 0
		for ; l+4 <= len(u); l += 4 {
			x0, x1, x2, x3 := gemmSources(a, ld, n, r0+l, r1, len(c))
			b0, b1, b2, b3 := u[l], u[l+1], u[l+2], u[l+3]
			for i := range c {
				c[i] -= x0[i]*b0 + x1[i]*b1 + x2[i]*b2 + x3[i]*b3
			}
		}
		for ; l < len(u); l++ {
			x := a[(r0+l)*ld+r1 : (r0+l)*ld+n]
			x = x[:len(c)]
			b := u[l]
			for i, y := range x {
				c[i] -= y * b
			}
		}
	}
}

// gemmSources is rows [r1, n) of the four source columns from l on, each
// cut to length m so the compiler sees them as long as the target.
func gemmSources[T batchlas.Float](a []T, ld, n, l, r1, m int) (x0, x1, x2, x3 []T) {
	x0 = a[l*ld+r1 : l*ld+n]
	x1 = a[(l+1)*ld+r1 : (l+1)*ld+n]
	x2 = a[(l+2)*ld+r1 : (l+2)*ld+n]
	x3 = a[(l+3)*ld+r1 : (l+3)*ld+n]
	return x0[:m], x1[:m], x2[:m], x3[:m]
}
