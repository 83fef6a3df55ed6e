//go:build amd64 && !purego

package syrk

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:generate go run gen.go

// The triangle kernels of tri_amd64.s (gen.go): the uplo triangle of C :=
// alpha*X*X^T (+ beta*C when hasBeta) for the n x k X, strides in bytes;
// pf holds two byte ranges [start, end) of cache hints.
//
//go:noescape
func triF64(k int, x *float64, ldx int, c *float64, ldc int, n int, ab *[2]float64, hasBeta int, upper int, pf *[4]uintptr)

//go:noescape
func triF32(k int, x *float32, ldx int, c *float32, ldc int, n int, ab *[2]float32, hasBeta int, upper int, pf *[4]uintptr)

// triRuns reports whether the triangle kernel runs here: the AVX-512
// assembly, on the same switch as the vector tile's (simd.AVX512), so a
// process presented as x86-64-v3 runs the tiles as such a machine does.
func triRuns() bool { return simd.AVX512 }

// tri runs the triangle kernel on the n x k X (leading dimension ldx) and
// the n x n C (ldc), k >= 1, n >= 1.
func tri[T batchlas.Float](k int, x []T, ldx int, c []T, ldc, n int, ab *[2]T, hasBeta, upper bool, pf *[4]uintptr) {
	// The assembly reads and writes within these slices (masked lanes are
	// neither read nor written); slicing checks they exist.
	x = x[:(k-1)*ldx+n]
	c = c[:(n-1)*ldc+n]
	var z T
	es := int(unsafe.Sizeof(z))
	beta, up := 0, 0
	if hasBeta {
		beta = 1
	}
	if upper {
		up = 1
	}
	if es == 8 {
		triF64(k, (*float64)(unsafe.Pointer(&x[0])), ldx*es, (*float64)(unsafe.Pointer(&c[0])), ldc*es, n,
			(*[2]float64)(unsafe.Pointer(ab)), beta, up, pf)
		return
	}
	triF32(k, (*float32)(unsafe.Pointer(&x[0])), ldx*es, (*float32)(unsafe.Pointer(&c[0])), ldc*es, n,
		(*[2]float32)(unsafe.Pointer(ab)), beta, up, pf)
}
