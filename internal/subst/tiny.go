package subst

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// Subnormal diagonals. The kernels multiply by each diagonal entry's
// reciprocal, which overflows (or is barely finite) for a nonzero entry
// below the smallest normal number, where the division BLAS does gives a
// finite result: 1e-310 on the diagonal of an upper factor turned X = 1
// into X = Inf, or into NaN where the Inf met a zero. So a triangle with
// such an entry is solved by division instead (solveColsDiv, scaleGo's
// division), as reference BLAS's dtrsm does; the check is a pass over the
// t packed reciprocals, nothing beside the O(t*t) solve, and the common
// path is unchanged. (A zero diagonal is no such entry: its reciprocal is
// Inf exactly as x/0 is, and it keeps the vector path.)

// tinyEntry reports whether x is nonzero and below the smallest normal
// number in magnitude (NaN is not).
func tinyEntry[T batchlas.Float](x T) bool {
	if x < 0 {
		x = -x
	}
	return x > 0 && x < smallestNormal[T]()
}

// smallestNormal is the smallest positive normal number of T.
func smallestNormal[T batchlas.Float]() T {
	var z T
	// A variable, not a constant: 0x1p-1022 does not fit float32.
	s := 0x1p-1022
	if unsafe.Sizeof(z) == 4 {
		s = 0x1p-126
	}
	return T(s)
}

// hasTinyDiagonal reports whether E (diagonal E[i,i] = e[i*(lde+1)]) has
// a tiny diagonal entry, reading only those whose packed reciprocal in dg
// says the entry may be one (|1/E[i,i]| at least 1/smallestNormal, or Inf:
// a unit diagonal packs 1 and is never read).
func hasTinyDiagonal[T batchlas.Float](e []T, lde int, dg []T, t int, back bool) bool {
	w := width[T]()
	big := 1 / smallestNormal[T]()
	for p := 0; p*w < t; p++ {
		b := blockAt(p, t, w, back)
		d := dg[p*(w+1)*w:][:b.cnt]
		for l, r := range d {
			if (r >= big || r <= -big) && tinyEntry(e[(b.row0+l)*(lde+1)]) {
				return true
			}
		}
	}
	return false
}

// solveColsDiv is SolveCols by reference BLAS's dtrsm (side Left, no
// transpose, non-unit: a tiny diagonal entry is never unit), reading the
// whole triangle from e, its diagonal included: each column of C is
// scaled by alpha, then each solved entry, when nonzero, is divided by
// its diagonal and swept down (forward) or up (back) its column of E.
func solveColsDiv[T batchlas.Float](e []T, lde, t int, back bool, c []T, ldc, ncols int, alpha T) {
	for j := range ncols {
		col := c[j*ldc : j*ldc+t]
		if alpha != 1 {
			for i := range col {
				col[i] *= alpha
			}
		}
		for s := range t {
			k := s
			if back {
				k = t - 1 - s
			}
			if col[k] == 0 {
				continue
			}
			col[k] /= e[k*lde+k]
			x := col[k]
			ek := e[k*lde : k*lde+t]
			if back {
				for i := range k {
					col[i] -= x * ek[i]
				}
			} else {
				for i := k + 1; i < t; i++ {
					col[i] -= x * ek[i]
				}
			}
		}
	}
}

// TinyDiagonal reports whether the non-unit triangle E of order t, read
// as E[i,k] = a[i*ers + k*ecs], has a subnormal diagonal entry: then the
// reciprocal PackSteps stores for it overflows, and the caller solves
// that matrix by division instead of SolveRows or its own packed loops.
func TinyDiagonal[T batchlas.Float](a []T, t, ers, ecs int) bool {
	for i := range t {
		if tinyEntry(a[i*(ers+ecs)]) {
			return true
		}
	}
	return false
}
