package tri

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
	"github.com/batchlas-go/batchlas/internal/vec"
)

// Inverse overwrites the uplo triangle of the n x n matrix t (leading
// dimension ld; the other triangle is not touched) with its inverse, a
// column at a time (LAPACK's xTRTI2, non-unit diagonal): column c of the
// inverse is -inv(T)[part, part] * T[part, c] / T[c, c], the product a
// triangular matrix-vector one on the columns already inverted (those
// left of c for upper, right of c for lower; timesUpper and timesLower).
// The diagonal must hold no zero (the callers check it).
func Inverse[T batchlas.Float](lower bool, n int, t []T, ld int) {
	if lower {
		for c := n - 1; c >= 0; c-- {
			col := t[c*ld : c*ld+n]
			col[c] = 1 / col[c]
			tcc := -col[c]
			if c+1 < n {
				timesLower(n-c-1, t[(c+1)*ld+c+1:], ld, col[c+1:])
			}
			for k := c + 1; k < n; k++ {
				col[k] *= tcc
			}
		}
		return
	}
	for c := range n {
		col := t[c*ld : c*ld+c+1]
		col[c] = 1 / col[c]
		tcc := -col[c]
		timesUpper(c, t, ld, col[:c])
		for k := range c {
			col[k] *= tcc
		}
	}
}

// timesUpper sets y := U*y for the m x m upper triangle U of u (leading
// dimension ld) by columns, as xTRMV does: column k adds y[k] times its
// part above the diagonal to y[:k], then y[k] takes the diagonal's
// product. Each y[i] is thus U[i,i]*y[i] rounded, then fma(y[k], U[i,k],
// .) for k = i+1, ... in order. Four columns go through y[:k] in one pass
// (vec.Axpy4, the same operations on each entry in the same order), and
// their 4 x 4 diagonal block is made here entry by entry.
func timesUpper[T batchlas.Float](m int, u []T, ld int, y []T) {
	k := 0
	for ; k+4 <= m; k += 4 {
		x := [4]T{y[k], y[k+1], y[k+2], y[k+3]}
		vec.Axpy4(&x, u[k*ld:], u[(k+1)*ld:], u[(k+2)*ld:], u[(k+3)*ld:], y[:k])
		for j := range 4 {
			v := T(x[j] * u[(k+j)*ld+k+j])
			for j2 := j + 1; j2 < 4; j2++ {
				v = fma.Of(x[j2], u[(k+j2)*ld+k+j], v)
			}
			y[k+j] = v
		}
	}
	for ; k < m; k++ {
		x := y[k]
		vec.Axpy(x, u[k*ld:k*ld+k], y[:k])
		y[k] = x * u[k*ld+k]
	}
}

// timesLower sets y := L*y for the m x m lower triangle L of l (leading
// dimension ld) by columns from the last, as xTRMV does: column k adds
// y[k] times its part below the diagonal to y[k+1:], then y[k] takes the
// diagonal's product. Each y[i] is thus L[i,i]*y[i] rounded, then
// fma(y[k], L[i,k], .) for k = i-1, i-2, ... in order. Four columns (k,
// k-1, k-2, k-3) go through y[k+1:] in one pass (vec.Axpy4), and their
// 4 x 4 diagonal block is made here entry by entry.
func timesLower[T batchlas.Float](m int, l []T, ld int, y []T) {
	k := m - 1
	for ; k >= 3; k -= 4 {
		x := [4]T{y[k], y[k-1], y[k-2], y[k-3]}
		vec.Axpy4(&x, l[k*ld+k+1:], l[(k-1)*ld+k+1:], l[(k-2)*ld+k+1:], l[(k-3)*ld+k+1:], y[k+1:m])
		// Entry k-j of the block: its diagonal's product, then columns
		// k-j-1 .. k-3.
		for j := range 4 {
			r := k - j
			v := T(x[j] * l[r*ld+r])
			for j2 := j + 1; j2 < 4; j2++ {
				v = fma.Of(x[j2], l[(k-j2)*ld+r], v)
			}
			y[r] = v
		}
	}
	for ; k >= 0; k-- {
		x := y[k]
		vec.Axpy(x, l[k*ld+k+1:k*ld+m], y[k+1:m])
		y[k] = x * l[k*ld+k]
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
		k := i + 1
		for ; k+4 <= n; k += 4 {
			// Four columns in one pass (vec.Axpy4), the same operations.
			x := [4]T{t[k*ld+i], t[(k+1)*ld+i], t[(k+2)*ld+i], t[(k+3)*ld+i]}
			vec.Axpy4(&x, t[k*ld:], t[(k+1)*ld:], t[(k+2)*ld:], t[(k+3)*ld:], ci[:i])
			for _, v := range x {
				d += v * v
			}
		}
		for ; k < n; k++ {
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
