//go:build amd64 && !purego

package lanerows

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
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
	if lanes[T]() == 8 {
		axpyRowsF64((*float64)(yp), (*float64)(xp), rows, (*float64)(tp))
	} else {
		axpyRowsF32((*float32)(yp), (*float32)(xp), rows, (*float32)(tp))
	}
	return true
}
