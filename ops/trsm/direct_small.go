package trsm

import "github.com/batchlas-go/batchlas"

// smallT is the largest triangle solved by solveSmall. Packing the triangle
// and staging four columns of C in a panel pay off from a few rows on; for
// a triangle of one to four rows they were most of the work (direct ran at
// half the speed of gonum's per-matrix Dtrsm at m=n=2), so such triangles
// are solved straight from A and B.
const smallT = 4

// solveSmall solves E*Y = alpha*C in place for a triangle E of order
// t <= smallT, read from a through g (only its referenced triangle, and its
// diagonal only when it is not unit). C(i, j) is c[i*cis + j*cjs]: the
// columns of B for side Left, its rows for side Right. Like the packed
// path it multiplies by the reciprocal of each diagonal entry.
func solveSmall[T batchlas.Float](a []T, g geom, unit bool, t, r int, c []T, cis, cjs int, alpha T) {
	var inv [smallT]T
	for i := range t {
		if unit {
			inv[i] = 1
		} else {
			inv[i] = 1 / a[i*(g.ers+g.ecs)]
		}
	}
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
			cj[i*cis] = v * inv[i]
		}
	}
}
