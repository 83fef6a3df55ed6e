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
