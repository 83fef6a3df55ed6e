//go:build amd64 && !purego

package lanerows

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:noescape
func axpyRowsF64(y, x *float64, rows int, t *float64)

//go:noescape
func axpyRowsF32(y, x *float32, rows int, t *float32)

//go:noescape
func axpyRowsAVX2F64(y, x *float64, rows int, t *float64)

//go:noescape
func axpyRowsAVX2F32(y, x *float32, rows int, t *float32)

// axpyRowsAsm runs the AVX-512 assembly when simd.AVX512 is set, the AVX2
// one (rows_avx2_amd64.s) when simd.AVX2 is, and reports whether either
// ran.
func axpyRowsAsm[T batchlas.Float](y, x, t []T, rows int) bool {
	if !simd.AVX512 && !simd.AVX2 {
		return false
	}
	yp, xp, tp := unsafe.Pointer(&y[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&t[0])
	if !simd.AVX512 {
		if lanes.Lanes[T]() == 8 {
			axpyRowsAVX2F64((*float64)(yp), (*float64)(xp), rows, (*float64)(tp))
		} else {
			axpyRowsAVX2F32((*float32)(yp), (*float32)(xp), rows, (*float32)(tp))
		}
		return true
	}
	if lanes.Lanes[T]() == 8 {
		axpyRowsF64((*float64)(yp), (*float64)(xp), rows, (*float64)(tp))
	} else {
		axpyRowsF32((*float32)(yp), (*float32)(xp), rows, (*float32)(tp))
	}
	return true
}

//go:noescape
func dotRowsF64(dst, x, y *float64, rows int)

//go:noescape
func dotRowsF32(dst, x, y *float32, rows int)

//go:noescape
func dotRowsAVX2F64(dst, x, y *float64, rows int)

//go:noescape
func dotRowsAVX2F32(dst, x, y *float32, rows int)

// dotRowsAsm runs the AVX-512 assembly when simd.AVX512 is set, the AVX2
// one when simd.AVX2 is, and reports whether either ran.
func dotRowsAsm[T batchlas.Float](acc, x, y []T, rows int) bool {
	if !simd.AVX512 && !simd.AVX2 {
		return false
	}
	ap, xp, yp := unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
	if !simd.AVX512 {
		if lanes.Lanes[T]() == 8 {
			dotRowsAVX2F64((*float64)(ap), (*float64)(xp), (*float64)(yp), rows)
		} else {
			dotRowsAVX2F32((*float32)(ap), (*float32)(xp), (*float32)(yp), rows)
		}
		return true
	}
	if lanes.Lanes[T]() == 8 {
		dotRowsF64((*float64)(ap), (*float64)(xp), (*float64)(yp), rows)
	} else {
		dotRowsF32((*float32)(ap), (*float32)(xp), (*float32)(yp), rows)
	}
	return true
}
