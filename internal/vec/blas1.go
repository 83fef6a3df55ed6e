package vec

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// The level-1 kernels of the tridiagonal reductions (syev's sytd2 and
// latrd): the symmetric matrix-vector product and rank-2 update run a
// column at a time through them. Each entry's update is one or two fused
// multiply-adds, and each dot product is summed in the lane order of its
// twin (dot, or dot4 for DotAxpy), so the assembly and the Go twins give
// the same bits.

// Dot returns v^T*x over len(v) entries, summed in dot's lane order.
func Dot[T batchlas.Float](v, x []T) T {
	if len(v) == 0 {
		return 0
	}
	x = x[:len(v)]
	if r, ok := dotAsm(v, x); ok {
		return r
	}
	return dot(v, x)
}

// Axpy sets y[i] = fma(alpha, x[i], y[i]) for i < len(x).
func Axpy[T batchlas.Float](alpha T, x, y []T) {
	if len(x) == 0 {
		return
	}
	y = y[:len(x)]
	if axpyAsm(alpha, x, y) {
		return
	}
	for i, v := range x {
		y[i] = fma.Of(alpha, v, y[i])
	}
}

// Axpy2 sets z[i] = fma(b, y[i], fma(a, x[i], z[i])) for i < len(x): two
// updates of z in one pass (a symmetric rank-2 update's column).
func Axpy2[T batchlas.Float](a T, x []T, b T, y, z []T) {
	if len(x) == 0 {
		return
	}
	y, z = y[:len(x)], z[:len(x)]
	if axpy2Asm(a, x, b, y, z) {
		return
	}
	for i, v := range x {
		z[i] = fma.Of(b, y[i], fma.Of(a, v, z[i]))
	}
}

// DotAxpy sets y[i] = fma(alpha, a[i], y[i]) and returns a^T*x (in
// dot4's lane order), for i < len(a), reading a once: one column's share
// of a symmetric matrix-vector product from its lower triangle.
func DotAxpy[T batchlas.Float](alpha T, a, x, y []T) T {
	if len(a) == 0 {
		return 0
	}
	x, y = x[:len(a)], y[:len(a)]
	if r, ok := dotAxpyAsm(alpha, a, x, y); ok {
		return r
	}
	for i, v := range a {
		y[i] = fma.Of(alpha, v, y[i])
	}
	return dot4(a, x)
}

// dot4 is v^T*x in DotAxpy's lane order: element i adds to lane i%W of
// accumulator (i/W)%4 by a fused multiply-add (the tail's missing lanes
// add 0*0 to the accumulator the tail's vector falls in), the four are
// summed as (acc0 + acc1) + (acc2 + acc3), then by halves as in dot.
func dot4[T batchlas.Float](v, x []T) T {
	var acc [4][16]T
	W := Width[T]()
	for i := range v {
		a := &acc[(i/W)%4]
		a[i%W] = fma.Of(v[i], x[i], a[i%W])
	}
	if r := len(v) % W; r != 0 {
		a := &acc[(len(v)/W)%4]
		for l := r; l < W; l++ {
			a[l] += 0
		}
	}
	var sum [16]T
	for l := range W {
		sum[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l])
	}
	for h := W / 2; h >= 1; h /= 2 {
		for l := range h {
			sum[l] += sum[l+h]
		}
	}
	return sum[0]
}

// DotAxpy4 is DotAxpy on four columns at once, a_c = a[c*lda:][:len(x)]:
// y[i] = fma(t[3], a_3[i], fma(t[2], a_2[i], fma(t[1], a_1[i], fma(t[0],
// a_0[i], y[i])))), the updates of the four columns one after another as
// DotAxpy would make them, and dots[c] = a_c^T*x in Dot's lane order. x
// and y are read and written once for the four columns, which is what
// makes the symmetric matrix-vector product run at the speed of its
// matrix rather than of its vectors.
func DotAxpy4[T batchlas.Float](t *[4]T, a []T, lda int, x, y []T, dots *[4]T) {
	n := len(x)
	if n == 0 {
		*dots = [4]T{}
		return
	}
	a, y = a[:3*lda+n], y[:n]
	if dotAxpy4Asm(t, a, lda, x, y, dots) {
		return
	}
	a0, a1, a2, a3 := a[:n], a[lda:lda+n], a[2*lda:2*lda+n], a[3*lda:3*lda+n]
	for i := range n {
		v := fma.Of(t[0], a0[i], y[i])
		v = fma.Of(t[1], a1[i], v)
		v = fma.Of(t[2], a2[i], v)
		y[i] = fma.Of(t[3], a3[i], v)
	}
	for c := range 4 {
		dots[c] = dot(a[c*lda:c*lda+n], x)
	}
}

// Axpy4 is Axpy with four columns one after another: y[i] = fma(t[3],
// a3[i], fma(t[2], a2[i], fma(t[1], a1[i], fma(t[0], a0[i], y[i])))), the
// updates Axpy would make column by column, reading and writing y once
// for the four (a triangular matrix-vector product's columns, in either
// order along the matrix). Each a_c holds at least len(y) elements.
func Axpy4[T batchlas.Float](t *[4]T, a0, a1, a2, a3, y []T) {
	n := len(y)
	if n == 0 {
		return
	}
	a0, a1, a2, a3 = a0[:n], a1[:n], a2[:n], a3[:n]
	if axpy4Asm(t, a0, a1, a2, a3, y) {
		return
	}
	for i := range n {
		v := fma.Of(t[0], a0[i], y[i])
		v = fma.Of(t[1], a1[i], v)
		v = fma.Of(t[2], a2[i], v)
		y[i] = fma.Of(t[3], a3[i], v)
	}
}

// Axpy2x4 is Axpy2 on four columns at once, a_c = a[c*lda:][:len(x)]:
// a_c[i] = fma(pq[4+c], y[i], fma(pq[c], x[i], a_c[i])), reading x and y
// once for the four columns (a symmetric rank-2 update's columns).
func Axpy2x4[T batchlas.Float](pq *[8]T, a []T, lda int, x, y []T) {
	n := len(x)
	if n == 0 {
		return
	}
	a, y = a[:3*lda+n], y[:n]
	if axpy2x4Asm(pq, a, lda, x, y) {
		return
	}
	for c := range 4 {
		ac := a[c*lda : c*lda+n]
		for i, v := range x {
			ac[i] = fma.Of(pq[4+c], y[i], fma.Of(pq[c], v, ac[i]))
		}
	}
}
