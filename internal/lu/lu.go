// Package lu holds the building blocks of LU with partial pivoting that
// getrf's native kernels and gesv's fused kernel share, so the pivot,
// zero-pivot and NaN rules (package getrf's documentation) are written
// once. Each works on one column-major n x n matrix a with leading
// dimension ld, in place; pivot vectors hold global row indices (0-based),
// so a block of columns is factored in the coordinates of the whole
// matrix.
//
// Every kernel chooses pivots and treats zero and NaN pivots exactly as
// Getf2 does here; the kernels differ only in the order in which they add
// up the updates of an element, which changes rounding, never a decision
// made on exact values.
package lu

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// safeMin is the smallest positive T whose reciprocal does not overflow
// (LAPACK's lamch('S'): the smallest normal number). A pivot at least this
// large scales its column by its reciprocal, a smaller one divides each
// entry, as LAPACK's getf2 and gonum's Dgetf2 do, so the kernels agree with
// the vendor kernel on subnormal pivots too.
func SafeMin[T batchlas.Float]() T {
	var z T
	if _, ok := any(z).(float32); ok {
		v := float32(0x1p-126)
		return T(v)
	}
	v := 0x1p-1022
	return T(v)
}

// abs is |x|; NaN stays NaN, so every comparison with it is false. It
// clears the sign bit rather than branching on it: the pivot search calls
// it on every entry below the diagonal, and a branch on random signs
// mispredicted half the time (a third of gesv's time at n=128 in one
// profile).
func Abs[T batchlas.Float](x T) T { return T(math.Abs(float64(x))) }

// iamax is BLAS's i?amax: the first index of the largest |x[i]|. The
// running maximum starts at x[0] and is replaced only by a strictly larger
// value, so a NaN never replaces it and, once it is x[0], nothing does: a
// NaN is the pivot only when it is the first candidate. x is not empty.
func Iamax[T batchlas.Float](x []T) int {
	best, bmax := 0, Abs(x[0])
	for i := 1; i < len(x); i++ {
		if v := Abs(x[i]); v > bmax {
			best, bmax = i, v
		}
	}
	return best
}

// scaleBelow turns column entries below the pivot into multipliers, as
// getf2: nothing at a zero pivot (there is nothing to eliminate without
// dividing by zero, and LAPACK leaves the column as it is), the reciprocal
// times each entry at a pivot of at least small (NaN fails that test and
// divides, which gives NaN as the reciprocal would), a division otherwise.
func ScaleBelow[T batchlas.Float](col []T, pivot, small T) {
	if pivot == 0 {
		return
	}
	if Abs(pivot) >= small {
		r := 1 / pivot
		for i := range col {
			col[i] *= r
		}
		return
	}
	for i := range col {
		col[i] /= pivot
	}
}

// getf2 factors columns [c0, c1) of a, rows c0..n-1, right-looking one
// column at a time: for each column j it chooses the pivot row with iamax
// over rows j..n-1, records it in piv[j], swaps rows j and piv[j] across
// columns [s0, s1), turns the column below the diagonal into multipliers
// (scaleBelow) and subtracts their product with row j from columns
// j+1..c1-1 below row j. Columns outside [c0, c1) are neither updated nor,
// outside [s0, s1), swapped: the blocked kernels do that with laswp.
//
// Every pivot choice is made on a fully updated column, so it is the same
// in every kernel whatever the blocking. The update is not skipped for a
// zero multiplier or a zero pivot: 0 * NaN is NaN, as in gonum's Dger.
func Getf2[T batchlas.Float](a []T, ld, n, c0, c1, s0, s1 int, piv []int32, small T) {
	for j := c0; j < c1; j++ {
		col := a[j*ld : j*ld+n]
		p := j + Iamax(col[j:])
		piv[j] = int32(p)
		if p != j {
			// Only a nonzero, non-NaN pivot can lie below the diagonal, so
			// swapping here is LAPACK's "swap unless the pivot is zero".
			SwapRows(a, ld, j, p, s0, s1)
		}
		l := col[j+1:]
		ScaleBelow(l, col[j], small)
		Rank1(a, ld, n, j, j+1, c1, l)
	}
}

// rank1AsmRows is the fewest rows Rank1 hands to the assembly: below a
// vector of rows its call costs more than the scalar loop (an AVX-512
// vector; the AVX2 loop, whose vector is half as wide, keeps the same
// threshold: getf2 at n = 32, most of whose updates are short, was as
// fast either way on the Zen 3).
const rank1AsmRows = 8

// swapRows exchanges rows r and p across columns [s0, s1).
func SwapRows[T batchlas.Float](a []T, ld, r, p, s0, s1 int) {
	for k := s0; k < s1; k++ {
		o := k * ld
		a[o+r], a[o+p] = a[o+p], a[o+r]
	}
}

// rank1 subtracts l * a(j, k) from a(j+1:n, k) for k in [k0, k1), where l
// is column j's multipliers below row j; four target columns share each
// load of l. Each element gets the same single update, in the same order,
// as a one-column loop would give it. From rank1AsmRows rows on, AVX-512
// or AVX2 does it a vector of rows at a time (rank1Asm), with the same
// arithmetic, so every kernel keeps its bits: getf2 (getrf's unblocked
// kernel) ran twice as fast, lu.Recursive 10-18% faster at n = 64 to 256
// (Zen 5, one core, AVX-512); getf2 at n = 128 1.7x as fast on AVX2 (Zen
// 3). The recursive kernel's substitutions, rows fewer than 8, go a
// column at a time instead on AVX-512 (substAsm), as Go elsewhere.
func Rank1[T batchlas.Float](a []T, ld, n, j, k0, k1 int, l []T) {
	if (simd.AVX512 || simd.AVX2) && len(l) >= rank1AsmRows {
		for k := k0; k < k1; k += 4 {
			cols := min(4, k1-k)
			var u [4]T
			for c := range cols {
				u[c] = a[(k+c)*ld+j]
			}
			rank1Asm(l, a[k*ld+j+1:], ld, cols, &u)
		}
		return
	}
	k := k0
	for ; k+4 <= k1; k += 4 {
		t0 := a[k*ld+j : k*ld+n]
		t1 := a[(k+1)*ld+j : (k+1)*ld+n]
		t2 := a[(k+2)*ld+j : (k+2)*ld+n]
		t3 := a[(k+3)*ld+j : (k+3)*ld+n]
		u0, u1, u2, u3 := t0[0], t1[0], t2[0], t3[0]
		t0, t1, t2, t3 = t0[1:], t1[1:], t2[1:], t3[1:]
		t0, t1, t2, t3 = t0[:len(l)], t1[:len(l)], t2[:len(l)], t3[:len(l)]
		for i, x := range l {
			t0[i] -= x * u0
			t1[i] -= x * u1
			t2[i] -= x * u2
			t3[i] -= x * u3
		}
	}
	for ; k < k1; k++ {
		t := a[k*ld+j : k*ld+n]
		u := t[0]
		t = t[1:]
		t = t[:len(l)]
		for i, x := range l {
			t[i] -= x * u
		}
	}
}

// laswp applies the interchanges piv[r0:r1] (row j with row piv[j], in
// order) to columns [s0, s1), a column at a time so each column is read
// once, contiguously, four columns together: their swaps are independent,
// so the four chains overlap where one column's swaps wait on each other
// (lu.Recursive 4-15% faster at n = 64 to 256, Zen 5). Every element
// moves as in a one-column loop.
func Laswp[T batchlas.Float](a []T, ld, n, s0, s1, r0, r1 int, piv []int32) {
	piv = piv[r0:r1]
	k := s0
	for ; k+4 <= s1; k += 4 {
		c0 := a[k*ld : k*ld+n]
		c1 := a[(k+1)*ld : (k+1)*ld+n]
		c2 := a[(k+2)*ld : (k+2)*ld+n]
		c3 := a[(k+3)*ld : (k+3)*ld+n]
		c1, c2, c3 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)]
		for i, pv := range piv {
			j, p := r0+i, int(pv)
			if p != j {
				c0[j], c0[p] = c0[p], c0[j]
				c1[j], c1[p] = c1[p], c1[j]
				c2[j], c2[p] = c2[p], c2[j]
				c3[j], c3[p] = c3[p], c3[j]
			}
		}
	}
	for ; k < s1; k++ {
		col := a[k*ld : k*ld+n]
		for i, pv := range piv {
			if j, p := r0+i, int(pv); p != j {
				col[j], col[p] = col[p], col[j]
			}
		}
	}
}

// diagInfo is a factored matrix's info: the first j (1-based) with
// !(|U(j-1, j-1)| > 0), so a zero or NaN pivot, else 0. U(j, j) is final
// once column j is factored (later interchanges move rows below j only),
// so reading the diagonal afterwards finds what every kernel would have
// seen, the vendor's included.
func DiagInfo[T batchlas.Float](a []T, ld, n int) int32 {
	for j := 0; j < n; j++ {
		if !(Abs(a[j*ld+j]) > 0) {
			return int32(j + 1)
		}
	}
	return 0
}
