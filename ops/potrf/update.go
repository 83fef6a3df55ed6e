package potrf

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// The building blocks shared by the unblocked, lpanel and blocked kernels.
// Each works on one column-major matrix a with leading dimension ld and
// touches only its uplo triangle.
//
// Lower works in axpy form: a target column is updated by sweeping whole
// source columns, four source columns and two target columns at a time, so
// every inner loop runs over contiguous slices (bounds checks hoisted) and
// each loaded source element feeds four multiply-adds.
//
// Upper works in dot form: the factor U is stored by columns, so U(k0:k1, j)
// is contiguous and every update is a dot product of two column pieces, two
// target rows by four target columns at a time (eight accumulators).

// lowerUpdate subtracts from the lower triangle of the column block
// [j0, j0+jb) (rows from each column's diagonal down to rowEnd) the product
// of the source columns [k0, k1):
//
//	a(i, j) -= sum_{k0 <= k < k1} a(i, k) * a(j, k),  j0 <= j < j0+jb, j <= i < rowEnd.
func lowerUpdate[T batchlas.Float](a []T, ld, j0, jb, rowEnd, k0, k1 int) {
	if k1 <= k0 {
		return
	}
	j := j0
	for ; j+2 <= j0+jb; j += 2 {
		lowerUpdate2(a, ld, j, rowEnd, k0, k1)
	}
	if j < j0+jb {
		lowerUpdate1(a, ld, j, rowEnd, k0, k1)
	}
}

// lowerUpdate2 is lowerUpdate on the column pair j, j+1.
func lowerUpdate2[T batchlas.Float](a []T, ld, j, rowEnd, k0, k1 int) {
	r0 := j + 1 // first row both columns own
	c0 := a[j*ld+r0 : j*ld+rowEnd]
	c1 := a[(j+1)*ld+r0 : (j+1)*ld+rowEnd]
	c1 = c1[:len(c0)]
	var djj T // a(j, j) sum, which only column j owns
	k := k0
	for ; k+4 <= k1; k += 4 {
		s0 := a[k*ld+j : k*ld+rowEnd]
		s1 := a[(k+1)*ld+j : (k+1)*ld+rowEnd]
		s2 := a[(k+2)*ld+j : (k+2)*ld+rowEnd]
		s3 := a[(k+3)*ld+j : (k+3)*ld+rowEnd]
		s1, s2, s3 = s1[:len(s0)], s2[:len(s0)], s3[:len(s0)]
		p0, p1, p2, p3 := s0[0], s1[0], s2[0], s3[0] // a(j, k..k+3)
		q0, q1, q2, q3 := s0[1], s1[1], s2[1], s3[1] // a(j+1, k..k+3)
		djj += p0*p0 + p1*p1 + p2*p2 + p3*p3
		s0, s1, s2, s3 = s0[1:], s1[1:len(s0)], s2[1:len(s0)], s3[1:len(s0)]
		s0 = s0[:len(c0)]
		s1, s2, s3 = s1[:len(c0)], s2[:len(c0)], s3[:len(c0)]
		for i, x0 := range s0 {
			x1, x2, x3 := s1[i], s2[i], s3[i]
			c0[i] -= p0*x0 + p1*x1 + p2*x2 + p3*x3
			c1[i] -= q0*x0 + q1*x1 + q2*x2 + q3*x3
		}
	}
	for ; k < k1; k++ {
		s0 := a[k*ld+j : k*ld+rowEnd]
		p0, q0 := s0[0], s0[1]
		djj += p0 * p0
		s0 = s0[1:]
		s0 = s0[:len(c0)]
		for i, x0 := range s0 {
			c0[i] -= p0 * x0
			c1[i] -= q0 * x0
		}
	}
	a[j*ld+j] -= djj
}

// lowerUpdate1 is lowerUpdate on the single column j.
func lowerUpdate1[T batchlas.Float](a []T, ld, j, rowEnd, k0, k1 int) {
	c0 := a[j*ld+j : j*ld+rowEnd]
	k := k0
	for ; k+4 <= k1; k += 4 {
		s0 := a[k*ld+j : k*ld+rowEnd]
		s1 := a[(k+1)*ld+j : (k+1)*ld+rowEnd]
		s2 := a[(k+2)*ld+j : (k+2)*ld+rowEnd]
		s3 := a[(k+3)*ld+j : (k+3)*ld+rowEnd]
		s0 = s0[:len(c0)]
		s1, s2, s3 = s1[:len(c0)], s2[:len(c0)], s3[:len(c0)]
		p0, p1, p2, p3 := s0[0], s1[0], s2[0], s3[0]
		for i, x0 := range s0 {
			c0[i] -= p0*x0 + p1*s1[i] + p2*s2[i] + p3*s3[i]
		}
	}
	for ; k < k1; k++ {
		s0 := a[k*ld+j : k*ld+rowEnd]
		s0 = s0[:len(c0)]
		p0 := s0[0]
		for i, x0 := range s0 {
			c0[i] -= p0 * x0
		}
	}
}

// lowerPanel2 is lowerPanel by column pairs: within the panel it is
// left-looking, column by column (pairs share their sweep of the panel's
// earlier columns). lowerPanel runs it on the last jb mod 4 columns.
func lowerPanel2[T batchlas.Float](a []T, ld, j0, jb, rowEnd int) int {
	end := j0 + jb
	for j := j0; j < end; j += 2 {
		if j+1 < end {
			lowerUpdate2(a, ld, j, rowEnd, j0, j)
			if !lowerPivot(a, ld, j, rowEnd) {
				return j + 1
			}
			lowerUpdate1(a, ld, j+1, rowEnd, j, j+1)
			if !lowerPivot(a, ld, j+1, rowEnd) {
				return j + 2
			}
			continue
		}
		lowerUpdate1(a, ld, j, rowEnd, j0, j)
		if !lowerPivot(a, ld, j, rowEnd) {
			return j + 1
		}
	}
	return 0
}

// lowerPivot takes the square root of the updated pivot a(j, j) and scales
// the column below it, rows to rowEnd. It reports false, leaving the column
// as it is, when the pivot is not positive or is NaN.
func lowerPivot[T batchlas.Float](a []T, ld, j, rowEnd int) bool {
	col := a[j*ld+j : j*ld+rowEnd]
	d := col[0]
	if !(d > 0) {
		return false
	}
	d = T(math.Sqrt(float64(d)))
	col[0] = d
	inv := 1 / d
	col = col[1:]
	for i := range col {
		col[i] *= inv
	}
	return true
}

// upperUpdate is lowerUpdate's mirror for the upper triangle: for the row
// block [j0, j0+jb) (columns from each row's diagonal right to colEnd),
//
//	a(j, i) -= sum_{k0 <= k < k1} a(k, j) * a(k, i),  j0 <= j < j0+jb, j <= i < colEnd.
func upperUpdate[T batchlas.Float](a []T, ld, j0, jb, colEnd, k0, k1 int) {
	if k1 <= k0 {
		return
	}
	j := j0
	for ; j+2 <= j0+jb; j += 2 {
		upperUpdate2(a, ld, j, colEnd, k0, k1)
	}
	if j < j0+jb {
		upperUpdate1(a, ld, j, colEnd, k0, k1)
	}
}

// upperUpdate2 is upperUpdate on the row pair j, j+1.
func upperUpdate2[T batchlas.Float](a []T, ld, j, colEnd, k0, k1 int) {
	u0 := a[j*ld+k0 : j*ld+k1]
	u1 := a[(j+1)*ld+k0 : (j+1)*ld+k1]
	u1 = u1[:len(u0)]
	// Column j: only row j is in the upper triangle.
	var d T
	for _, x := range u0 {
		d += x * x
	}
	a[j*ld+j] -= d
	i := j + 1
	for ; i+4 <= colEnd; i += 4 {
		v0 := a[i*ld+k0 : i*ld+k1]
		v1 := a[(i+1)*ld+k0 : (i+1)*ld+k1]
		v2 := a[(i+2)*ld+k0 : (i+2)*ld+k1]
		v3 := a[(i+3)*ld+k0 : (i+3)*ld+k1]
		v0, v1, v2, v3 = v0[:len(u0)], v1[:len(u0)], v2[:len(u0)], v3[:len(u0)]
		var s00, s01, s02, s03, s10, s11, s12, s13 T
		for k, x := range u0 {
			y := u1[k]
			w := v0[k]
			s00 += x * w
			s10 += y * w
			w = v1[k]
			s01 += x * w
			s11 += y * w
			w = v2[k]
			s02 += x * w
			s12 += y * w
			w = v3[k]
			s03 += x * w
			s13 += y * w
		}
		c0 := a[i*ld+j : i*ld+j+2]
		c1 := a[(i+1)*ld+j : (i+1)*ld+j+2]
		c2 := a[(i+2)*ld+j : (i+2)*ld+j+2]
		c3 := a[(i+3)*ld+j : (i+3)*ld+j+2]
		c0[0] -= s00
		c0[1] -= s10
		c1[0] -= s01
		c1[1] -= s11
		c2[0] -= s02
		c2[1] -= s12
		c3[0] -= s03
		c3[1] -= s13
	}
	for ; i < colEnd; i++ {
		v0 := a[i*ld+k0 : i*ld+k1]
		v0 = v0[:len(u0)]
		var s0, s1 T
		for k, x := range u0 {
			w := v0[k]
			s0 += x * w
			s1 += u1[k] * w
		}
		c0 := a[i*ld+j : i*ld+j+2]
		c0[0] -= s0
		c0[1] -= s1
	}
}

// upperUpdate1 is upperUpdate on the single row j.
func upperUpdate1[T batchlas.Float](a []T, ld, j, colEnd, k0, k1 int) {
	u0 := a[j*ld+k0 : j*ld+k1]
	i := j
	for ; i+4 <= colEnd; i += 4 {
		v0 := a[i*ld+k0 : i*ld+k1]
		v1 := a[(i+1)*ld+k0 : (i+1)*ld+k1]
		v2 := a[(i+2)*ld+k0 : (i+2)*ld+k1]
		v3 := a[(i+3)*ld+k0 : (i+3)*ld+k1]
		v0, v1, v2, v3 = v0[:len(u0)], v1[:len(u0)], v2[:len(u0)], v3[:len(u0)]
		var s0, s1, s2, s3 T
		for k, x := range u0 {
			s0 += x * v0[k]
			s1 += x * v1[k]
			s2 += x * v2[k]
			s3 += x * v3[k]
		}
		a[i*ld+j] -= s0
		a[(i+1)*ld+j] -= s1
		a[(i+2)*ld+j] -= s2
		a[(i+3)*ld+j] -= s3
	}
	for ; i < colEnd; i++ {
		v0 := a[i*ld+k0 : i*ld+k1]
		v0 = v0[:len(u0)]
		var s0 T
		for k, x := range u0 {
			s0 += x * v0[k]
		}
		a[i*ld+j] -= s0
	}
}

// upperPanel is lowerPanel's mirror: it factors the rows [j0, j0+jb) of the
// upper triangle, columns right to colEnd, assuming every row above j0 has
// already been subtracted from them.
func upperPanel[T batchlas.Float](a []T, ld, j0, jb, colEnd int) int {
	end := j0 + jb
	for j := j0; j < end; j += 2 {
		if j+1 < end {
			upperUpdate2(a, ld, j, colEnd, j0, j)
			if !upperPivot(a, ld, j, colEnd) {
				return j + 1
			}
			upperUpdate1(a, ld, j+1, colEnd, j, j+1)
			if !upperPivot(a, ld, j+1, colEnd) {
				return j + 2
			}
			continue
		}
		upperUpdate1(a, ld, j, colEnd, j0, j)
		if !upperPivot(a, ld, j, colEnd) {
			return j + 1
		}
	}
	return 0
}

// upperPivot takes the square root of the updated pivot a(j, j) and scales
// the row right of it, columns to colEnd (a strided walk: O(n) per row).
func upperPivot[T batchlas.Float](a []T, ld, j, colEnd int) bool {
	d := a[j*ld+j]
	if !(d > 0) {
		return false
	}
	d = T(math.Sqrt(float64(d)))
	a[j*ld+j] = d
	inv := 1 / d
	for i := j + 1; i < colEnd; i++ {
		a[i*ld+j] *= inv
	}
	return true
}
