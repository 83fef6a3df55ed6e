package trsm

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/subst"
)

// A subnormal diagonal, side Left. Reference BLAS's dtrsm divides by each
// diagonal entry for side Left (and multiplies by its reciprocal for side
// Right, as gonum does for both: a column-major Left solve is its
// row-major Right one). The direct and vector kernels multiply by the
// reciprocal, which overflows for a nonzero entry below the smallest
// normal number, where the division gives a finite result: E =
// diag(1e-310, 1) and B = 1e-310 gave X = Inf or NaN instead of 1. So for
// side Left such a matrix is solved by solveDivide; every other keeps its
// kernel, and the check is a pass over the diagonal (package subst's
// SolveCols, the vector family's Left solve, takes the same detour
// itself).

// tinyDiagonal reports whether matrix a's triangle (geometry g, order t)
// must be solved by division (the caller checks the side).
func tinyDiagonal[T batchlas.Float](a []T, g geom, unit bool, t int) bool {
	return !unit && subst.TinyDiagonal(a, t, g.ers, g.ecs)
}

// solveDivide solves E*Y = alpha*C in place as solveSmall does, for any
// order, dividing by each diagonal entry.
func solveDivide[T batchlas.Float](a []T, g geom, t, r int, c []T, cis, cjs int, alpha T) {
	for j := range r {
		cj := c[j*cjs:]
		for s := range t {
			i, k0, k1 := s, 0, s // forward: row s against rows 0..s-1
			if g.back {
				i, k0, k1 = t-1-s, t-s, t // backward: against rows i+1..t-1
			}
			v := alpha * cj[i*cis]
			for k := k0; k < k1; k++ {
				v -= a[i*g.ers+k*g.ecs] * cj[k*cis]
			}
			cj[i*cis] = v / a[i*(g.ers+g.ecs)]
		}
	}
}

// tinyAmong reports whether one of the order-1 triangles of matrices
// [lo, hi) of a is subnormal.
func tinyAmong[T batchlas.Float](a batchlas.Batch[T], lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if subst.TinyDiagonal(a.Data[i*a.Stride:], 1, 1, 1) {
			return true
		}
	}
	return false
}
