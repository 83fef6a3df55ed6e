package lu

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// RecursiveLeaf is the widest block of columns the recursive kernel
// factors with getf2: narrower blocks make the recursion's overhead (a
// solve, a product and two interchange passes per split) outweigh their
// work. An order up to it is factored by getf2 whole, which is the
// unblocked kernel (twin).
const RecursiveLeaf = 8

// Recursive factors the n x n matrix a (leading dimension ld) in place by
// recursive halving of its columns (the shape of LAPACK's getrf2): the
// product that updates the right half runs over whole column blocks on
// the vector tile, instead of one rank-1 update per column sweeping the
// whole trailing matrix. Pivots go to piv[0:n], 0-based; small is
// SafeMin's threshold. Pivots and info follow Getf2's rules, chosen on
// fully updated columns.
func Recursive[T batchlas.Float](a []T, ld, n int, piv []int32, small T) {
	recursiveLU(a, ld, n, 0, n, piv, small)
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
	if nc <= RecursiveLeaf {
		Getf2(a, ld, n, c0, c0+nc, c0, c0+nc, piv, small)
		return
	}
	n1 := nc / 2
	mid, end := c0+n1, c0+nc
	recursiveLU(a, ld, n, c0, n1, piv, small)
	Laswp(a, ld, n, mid, end, c0, mid, piv)
	trsmUnitLower(a, ld, c0, mid, mid, end)
	gemmSub(a, ld, n, c0, mid, mid, end)
	recursiveLU(a, ld, n, mid, nc-n1, piv, small)
	Laswp(a, ld, n, c0, mid, mid, end, piv)
}

// trsmUnitLower overwrites rows [r0, r1) of columns [s0, s1) with
// L^-1 times them, L the unit lower triangle of a's diagonal block
// [r0, r1) x [r0, r1), by recursive halving of the triangle: the top
// half's rows are solved, their product with the block below them is
// subtracted from the bottom half's rows on the vector tile (simd.Gemm),
// and the bottom half is solved. Triangles of trsmLeaf rows or fewer are
// solved by forward substitution (substituteUnitLower): the substitution
// is scalar, so the less of the work it does, the better, and below that
// the tile's calls cost more than they save.
func trsmUnitLower[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) {
	if r1-r0 > trsmLeaf {
		rm := r0 + (r1-r0)/2
		trsmUnitLower(a, ld, r0, rm, s0, s1)
		simd.Gemm(false, false, r1-rm, s1-s0, rm-r0, -1, a[r0*ld+rm:], ld, a[s0*ld+r0:], ld, 1, a[s0*ld+rm:], ld)
		trsmUnitLower(a, ld, rm, r1, s0, s1)
		return
	}
	substituteUnitLower(a, ld, r0, r1, s0, s1)
}

// substituteUnitLower is trsmUnitLower's leaf: forward substitution down
// rows [r0, r1), a row of L at a time (Rank1), over substituteCols columns
// at a time. One sweep of Rank1 per row across all of [s0, s1) gave each
// element the same updates in the same order, but it crossed every column
// once per row, and with a leading dimension of a power of two (n = 512
// float64: 4096 bytes) those columns share a cache set: every pass missed
// L1 (the widest ones L2 too), and the leaves took half of lu.Recursive's
// time (float64 n = 512: 4.4 ms, 2.3 with these blocks). On AVX-512 the
// leaf runs a column at a time instead (substAsm: the column's rows are
// one vector), with the same bits: rows shorter than a vector left
// Rank1's loops scalar, and they were a third of lu.Recursive at n = 256.
func substituteUnitLower[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) {
	if simd.AVX512 && r1-r0 >= 2 && r1-r0 <= 8 && s1 > s0 {
		substAsm(a, ld, r0, r1, s0, s1)
		return
	}
	for c0 := s0; c0 < s1; c0 += substituteCols {
		c1 := min(s1, c0+substituteCols)
		for j := r0; j < r1-1; j++ {
			Rank1(a, ld, r1, j, c0, c1, a[j*ld+j+1:j*ld+r1])
		}
	}
}

// substituteCols is the width of substituteUnitLower's blocks: eight
// columns stay in L1 even when they all map to one of its 12-way sets
// (16 columns measured a third slower at float64 n = 512).
const substituteCols = 8

// trsmLeaf is the largest triangle trsmUnitLower solves by substitution.
const trsmLeaf = 8

// gemmSub subtracts A21 * U12 from A22: rows [r1, n) of columns [s0, s1)
// minus rows [r1, n) of columns [r0, r1) times rows [r0, r1) of columns
// [s0, s1), with the vector tile (simd.Gemm). Every element sums its terms
// in order of the source column, however the tile cuts the block.
func gemmSub[T batchlas.Float](a []T, ld, n, r0, r1, s0, s1 int) {
	if r1 >= n || r1 <= r0 || s1 <= s0 {
		return
	}
	simd.Gemm(false, false, n-r1, s1-s0, r1-r0, -1, a[r0*ld+r1:], ld, a[s0*ld+r0:], ld, 1, a[s0*ld+r1:], ld)
}
