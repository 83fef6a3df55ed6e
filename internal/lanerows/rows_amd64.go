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

// axpyRowsAsm runs the assembly when simd.AVX512 is set and reports
// whether it did.
func axpyRowsAsm[T batchlas.Float](y, x, t []T, rows int) bool {
	if !simd.AVX512 {
		return false
	}
	yp, xp, tp := unsafe.Pointer(&y[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&t[0])
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

// dotRowsAsm runs the assembly when simd.AVX512 is set and reports
// whether it did.
func dotRowsAsm[T batchlas.Float](acc, x, y []T, rows int) bool {
	if !simd.AVX512 {
		return false
	}
	ap, xp, yp := unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
	if lanes.Lanes[T]() == 8 {
		dotRowsF64((*float64)(ap), (*float64)(xp), (*float64)(yp), rows)
	} else {
		dotRowsF32((*float32)(ap), (*float32)(xp), (*float32)(yp), rows)
	}
	return true
}
