package vec

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// Reflect applies the reflector H = I - tau*v*v^T from the left to ncols
// columns of a, ld elements apart, each of len(v) rows starting at
// a[c*ld]: col := col - (tau * v^T*col) * v, the update one fused
// multiply-add per entry, fma.Of(-w, v[i], col[i]) with w = tau*(v^T*col).
// The dot product is summed as the assembly sums it (see dot).
func Reflect[T batchlas.Float](v, a []T, ld, ncols int, tau T) {
	m := len(v)
	if m == 0 || ncols <= 0 {
		return
	}
	_ = a[(ncols-1)*ld+m-1]
	if reflectAsm(v, a, ld, ncols, tau) {
		return
	}
	for c := range ncols {
		col := a[c*ld : c*ld+m]
		w := dot(v, col) * tau
		for i, vi := range v {
			col[i] = fma.Of(-w, vi, col[i])
		}
	}
}

// Width is the number of T in a 64-byte vector (a cache line): the lanes
// the assembly sums a dot product in.
func Width[T batchlas.Float]() int {
	var z T
	return 64 / int(unsafe.Sizeof(z))
}

// dot is the assembly's dot product: lane i%W of one accumulator takes
// v[i]*x[i] by a fused multiply-add (the lanes past the end of a partial
// last vector take 0*0), then the lanes are summed by halves, lane i with
// lane i+W/2, until one is left.
func dot[T batchlas.Float](v, x []T) T {
	var acc [16]T
	W := Width[T]()
	for i := range v {
		acc[i%W] = fma.Of(v[i], x[i], acc[i%W])
	}
	if r := len(v) % W; r != 0 {
		for l := r; l < W; l++ {
			acc[l] += 0
		}
	}
	for h := W / 2; h >= 1; h /= 2 {
		for l := range h {
			acc[l] += acc[l+h]
		}
	}
	return acc[0]
}
