package potrf

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// lowerPanel works on blocks of four columns. Going by column pairs
// (lowerPanel2) leaves much of the time at n around 32 in passes that do one
// or two multiply-adds per loaded row: every pair ends with a one-source
// update of its second column and two separate scaling passes, and when
// the number of source columns is 2 mod 4 two more one-source passes. A
// block of four columns is updated by the panel's earlier columns in one
// product on the vector tile (lowerUpdateTile; two scalar lowerUpdate2
// sweeps before, which left panels of 16 and 32 a third slower at
// n = 128), then factored by lowerFactor4: its 4x4 diagonal block inline,
// and the rows below it in one pass that does all four columns'
// eliminations and scalings. (Doing that pass as a product with the
// block's inverse on the tile, from a copy of the rows, measured 17%
// slower at n = 128: a 4-column product uses half the tile.)

// lowerFactor4 factors the four columns [j, j+4), rows to rowEnd (>= j+4),
// whose updates by every column left of j are done: the 4x4 diagonal block
// by an inline Cholesky, then the rows below it in one pass,
//
//	l(i, c) = (a(i, c) - sum_{c' < c} l(i, c') * l(c, c')) / l(c, c).
//
// It returns 0 or the 1-based index of the first column whose pivot is not
// positive (NaN included).
func lowerFactor4[T batchlas.Float](a []T, ld, j, rowEnd int) int {
	d0 := a[j*ld+j : j*ld+j+4]
	d1 := a[(j+1)*ld+j+1 : (j+1)*ld+j+4]
	d2 := a[(j+2)*ld+j+2 : (j+2)*ld+j+4]
	d3 := a[(j+3)*ld+j+3 : (j+3)*ld+j+4]
	a00 := d0[0]
	if !(a00 > 0) {
		return j + 1
	}
	l00 := T(math.Sqrt(float64(a00)))
	i0 := 1 / l00
	l10, l20, l30 := d0[1]*i0, d0[2]*i0, d0[3]*i0
	a11 := d1[0] - l10*l10
	if !(a11 > 0) {
		return j + 2
	}
	l11 := T(math.Sqrt(float64(a11)))
	i1 := 1 / l11
	l21, l31 := (d1[1]-l20*l10)*i1, (d1[2]-l30*l10)*i1
	a22 := d2[0] - l20*l20 - l21*l21
	if !(a22 > 0) {
		return j + 3
	}
	l22 := T(math.Sqrt(float64(a22)))
	i2 := 1 / l22
	l32 := (d2[1] - l30*l20 - l31*l21) * i2
	a33 := d3[0] - l30*l30 - l31*l31 - l32*l32
	if !(a33 > 0) {
		return j + 4
	}
	l33 := T(math.Sqrt(float64(a33)))
	i3 := 1 / l33
	d0[0], d0[1], d0[2], d0[3] = l00, l10, l20, l30
	d1[0], d1[1], d1[2] = l11, l21, l31
	d2[0], d2[1] = l22, l32
	d3[0] = l33

	r0 := j + 4
	if r0 >= rowEnd {
		return 0
	}
	c0 := a[j*ld+r0 : j*ld+rowEnd]
	c1 := a[(j+1)*ld+r0 : (j+1)*ld+rowEnd]
	c2 := a[(j+2)*ld+r0 : (j+2)*ld+rowEnd]
	c3 := a[(j+3)*ld+r0 : (j+3)*ld+rowEnd]
	c1, c2, c3 = c1[:len(c0)], c2[:len(c0)], c3[:len(c0)]
	for i, x := range c0 {
		x0 := x * i0
		x1 := (c1[i] - x0*l10) * i1
		x2 := (c2[i] - x0*l20 - x1*l21) * i2
		x3 := (c3[i] - x0*l30 - x1*l31 - x2*l32) * i3
		c0[i], c1[i], c2[i], c3[i] = x0, x1, x2, x3
	}
	return 0
}

// lowerPanel factors the columns [j0, j0+jb) of the lower triangle, rows
// down to rowEnd, assuming every column left of j0 has already been
// subtracted from them: left-looking within the panel, eight columns at a
// time (the panel's earlier columns subtracted on the vector tile,
// lowerUpdateTile, then lowerFactor8), then four (lowerFactor4), the last
// jb mod 4 columns by lowerPanel2. It returns 0, or the 1-based
// index of the first column whose pivot is not positive (NaN included),
// where it stops.
func lowerPanel[T batchlas.Float](a []T, ld, j0, jb, rowEnd int) int {
	end := j0 + jb
	j := j0
	for ; j+8 <= end; j += 8 {
		if j > j0 {
			lowerUpdateTile(a, ld, j, 8, rowEnd, j0)
		}
		if f := lowerFactor8(a, ld, j, rowEnd); f != 0 {
			return f
		}
	}
	for ; j+4 <= end; j += 4 {
		if j > j0 {
			lowerUpdateTile(a, ld, j, 4, rowEnd, j0)
		}
		if f := lowerFactor4(a, ld, j, rowEnd); f != 0 {
			return f
		}
	}
	if j == end {
		return 0
	}
	lowerUpdate(a, ld, j, end-j, rowEnd, j0, j)
	return lowerPanel2(a, ld, j, end-j, rowEnd)
}
