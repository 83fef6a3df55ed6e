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

// The AVX2 triangle kernels of tri_avx2_amd64.s (gen.go too): the same
// walk and the same bits; ab holds alpha and beta broadcast over a 32-byte
// vector, masks[m] a vector's first m lanes set.
//
//go:noescape
func triAVX2F64(k int, x *float64, ldx int, c *float64, ldc int, n int, ab *[2][4]float64, hasBeta int, upper int, pf *[4]uintptr, masks *[5][4]uint64)

//go:noescape
func triAVX2F32(k int, x *float32, ldx int, c *float32, ldc int, n int, ab *[2][8]float32, hasBeta int, upper int, pf *[4]uintptr, masks *[9][8]uint32)

// The lane masks of the AVX2 kernels: laneMasks64[m] and laneMasks32[m]
// have their first m lanes set.
var (
	laneMasks64 = func() (m [5][4]uint64) {
		for r := range m {
			for i := range r {
				m[r][i] = ^uint64(0)
			}
		}
		return m
	}()
	laneMasks32 = func() (m [9][8]uint32) {
		for r := range m {
			for i := range r {
				m[r][i] = ^uint32(0)
			}
		}
		return m
	}()
)

// triRuns reports whether the triangle kernel runs here: the AVX-512 or
// the AVX2 assembly, on the vector tile's switches (simd.AVX512,
// simd.AVX2), so a process presented as a lower level runs what such a
// machine does.
func triRuns() bool { return simd.AVX512 || simd.AVX2 }

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
	xp, cp := unsafe.Pointer(&x[0]), unsafe.Pointer(&c[0])
	if !simd.AVX512 {
		if es == 8 {
			ab4 := [2][4]float64{}
			for i := range ab4[0] {
				ab4[0][i], ab4[1][i] = float64(ab[0]), float64(ab[1])
			}
			triAVX2F64(k, (*float64)(xp), ldx*es, (*float64)(cp), ldc*es, n, &ab4, beta, up, pf, &laneMasks64)
			return
		}
		ab8 := [2][8]float32{}
		for i := range ab8[0] {
			ab8[0][i], ab8[1][i] = float32(ab[0]), float32(ab[1])
		}
		triAVX2F32(k, (*float32)(xp), ldx*es, (*float32)(cp), ldc*es, n, &ab8, beta, up, pf, &laneMasks32)
		return
	}
	if es == 8 {
		triF64(k, (*float64)(xp), ldx*es, (*float64)(cp), ldc*es, n,
			(*[2]float64)(unsafe.Pointer(ab)), beta, up, pf)
		return
	}
	triF32(k, (*float32)(xp), ldx*es, (*float32)(cp), ldc*es, n,
		(*[2]float32)(unsafe.Pointer(ab)), beta, up, pf)
}
