package tri

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// Inverse overwrites the uplo triangle of the n x n matrix t (leading
// dimension ld; the other triangle is not touched) with its inverse, a
// column at a time (LAPACK's xTRTI2, non-unit diagonal): column c of the
// inverse is -inv(T)[part, part] * T[part, c] / T[c, c], the product a
// triangular matrix-vector one on the columns already inverted (those
// left of c for upper, right of c for lower). The diagonal must hold no
// zero (the callers check it).
func Inverse[T batchlas.Float](lower bool, n int, t []T, ld int) {
	if lower {
		inverseLower(n, t, ld)
		return
	}
	for c := range n {
		col := t[c*ld : c*ld+c+1]
		col[c] = 1 / col[c]
		tcc := -col[c]
		// col[:c] := inv(T)[:c, :c] * col[:c] (upper, not transposed:
		// each column k adds col[k] times its part above the diagonal,
		// then col[k] takes the diagonal's product), then times tcc.
		for k := range c {
			x := col[k]
			vec.Axpy(x, t[k*ld:k*ld+k], col[:k])
			col[k] = x * t[k*ld+k]
		}
		for k := range c {
			col[k] *= tcc
		}
	}
}

// inverseLower is Inverse for a lower triangle: the columns from the last
// one, col[c+1:] := inv(T)[c+1:, c+1:] * col[c+1:] (lower, not
// transposed: each column k, from the last, adds col[k] times its part
// below the diagonal, then col[k] takes the diagonal's product), then
// times -1/T[c, c].
func inverseLower[T batchlas.Float](n int, t []T, ld int) {
	for c := n - 1; c >= 0; c-- {
		col := t[c*ld : c*ld+n]
		col[c] = 1 / col[c]
		tcc := -col[c]
		for k := n - 1; k > c; k-- {
			x := col[k]
			vec.Axpy(x, t[k*ld+k+1:k*ld+n], col[k+1:])
			col[k] = x * t[k*ld+k]
		}
		for k := c + 1; k < n; k++ {
			col[k] *= tcc
		}
	}
}

// TimesTranspose overwrites the uplo triangle of the n x n matrix t
// (leading dimension ld; the other triangle is not touched) with the
// triangle of L^T*L for a lower triangle L, or of U*U^T for an upper one
// (LAPACK's xLAUU2): the product is symmetric, and its triangle fits
// where the factor was, computed row (lower) or column (upper) at a time
// from the entries not yet overwritten.
func TimesTranspose[T batchlas.Float](lower bool, n int, t []T, ld int) {
	if lower {
		// Row i of L^T*L's lower triangle: (j, i) for j <= i is the dot of
		// L's columns i and j from row i down, which only rows below i
		// (not yet overwritten) and row i itself enter.
		for i := range n {
			ci := t[i*ld+i : i*ld+n]
			for j := range i {
				cj := t[j*ld+i : j*ld+n]
				// L[i, j]*L[i, i] plus the rows below i.
				t[j*ld+i] = cj[0]*ci[0] + vec.Dot(ci[1:], cj[1:])
			}
			t[i*ld+i] = vec.Dot(ci, ci)
		}
		return
	}
	// Column i of U*U^T's upper triangle: (j, i) for j <= i is the dot of
	// U's rows i and j from column i on; taken as axpys of U's columns
	// right of i into column i, which only those columns (not yet
	// overwritten) and column i itself enter.
	for i := range n {
		ci := t[i*ld : i*ld+i+1]
		uii := ci[i]
		for j := range ci[:i] {
			ci[j] *= uii
		}
		var d T
		for k := i + 1; k < n; k++ {
			x := t[k*ld+i] // U[i, k]
			vec.Axpy(x, t[k*ld:k*ld+i], ci[:i])
			d += x * x
		}
		ci[i] = uii*uii + d
	}
}

// Singular is the inverses' failure code for the n x n triangle t
// (leading dimension ld): 0, or j+1 for the first zero or NaN on its
// diagonal at j (LAPACK's xGETRI and xPOTRI report exact zeros; a NaN
// would make the whole inverse NaN, and is reported alike). Both ops
// check it before any arithmetic, so every kernel reports the same.
func Singular[T batchlas.Float](n int, t []T, ld int) int32 {
	for j := range n {
		if d := t[j*ld+j]; d == 0 || d != d {
			return int32(j + 1)
		}
	}
	return 0
}
