package potrf

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// lowerFactor8 is lowerFactor4 on the eight columns [j, j+8), rows to
// rowEnd (>= j+8), whose updates by every column left of j are done: the
// 8x8 diagonal block by a Cholesky in Go (left-looking by columns), then
// the rows below it by rows8, a vector of rows at a time on AVX-512,
//
//	l(i, c) = (a(i, c) - sum_{c' < c} l(i, c') * l(c, c')) / l(c, c),
//
// multiplying by the reciprocals of the diagonal as lowerFactor4 does. At
// n = 256 with panels of 8, lowerFactor4's scalar rows and the 4-column
// tile between its two blocks took a quarter of the time for a twentieth
// of the flops (Zen 5). It returns 0 or the 1-based index of the first
// column whose pivot is not positive (NaN included); the columns before it
// are then factored, the rest of the block as it was or partly updated
// (potrf leaves a failed matrix's triangle unspecified).
func lowerFactor8[T batchlas.Float](a []T, ld, j, rowEnd int) int {
	// l holds L's diagonal block for rows8: l[8c+c'] = l(c, c') below
	// the diagonal, l[9c] = 1/l(c, c).
	var l [64]T
	for c := range 8 {
		cc := a[(j+c)*ld+j : (j+c)*ld+j+8]
		for c2 := range c {
			f := l[8*c+c2]
			src := a[(j+c2)*ld+j : (j+c2)*ld+j+8]
			for r := c; r < 8; r++ {
				cc[r] -= src[r] * f
			}
		}
		d := cc[c]
		if !(d > 0) {
			return j + c + 1
		}
		ljj := T(math.Sqrt(float64(d)))
		inv := 1 / ljj
		cc[c] = ljj
		l[9*c] = inv
		for r := c + 1; r < 8; r++ {
			cc[r] *= inv
			l[8*r+c] = cc[r]
		}
	}
	if r0 := j + 8; r0 < rowEnd {
		rows8(a[j*ld+r0:], ld, rowEnd-r0, &l)
	}
	return 0
}

// rows8Go is rows8 in Go: each row of the 8 columns of x (ld apart), n
// rows, solved against l as the assembly does, but with separate
// multiplies and subtractions (a fused multiply-add in Go is a library
// call on machines without the assembly).
func rows8Go[T batchlas.Float](x []T, ld, n int, l *[64]T) {
	var c [8][]T
	for k := range c {
		c[k] = x[k*ld : k*ld+n]
	}
	for i := range n {
		var v [8]T
		for k := range v {
			s := c[k][i]
			for k2 := range k {
				s -= v[k2] * l[8*k+k2]
			}
			v[k] = s * l[9*k]
		}
		for k := range v {
			c[k][i] = v[k]
		}
	}
}
