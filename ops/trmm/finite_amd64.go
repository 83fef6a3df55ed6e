//go:build amd64 && !purego

package trmm

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX2 loops of finite_amd64.s: the sum of x - x over a rows x cols
// matrix of leading dimension ld (rows, cols > 0).
//
//go:noescape
func sumSelfDiffF64(x *float64, rows, cols, ld int) float64

//go:noescape
func sumSelfDiffF32(x *float32, rows, cols, ld int) float32

// finite reports whether the rows x cols matrix x (leading dimension ld)
// holds no Inf or NaN: the assembly where the CPU has AVX2, the Go loop
// otherwise.
func finite[T batchlas.Float](x []T, rows, cols, ld int) bool {
	if rows == 0 || cols == 0 {
		return true
	}
	if !simd.AVX2 {
		return finiteGo(x, rows, cols, ld)
	}
	_ = x[(cols-1)*ld+rows-1] // the assembly reads up to here
	p := unsafe.Pointer(&x[0])
	if unsafe.Sizeof(x[0]) == 8 {
		s := sumSelfDiffF64((*float64)(p), rows, cols, ld)
		return s == s
	}
	s := sumSelfDiffF32((*float32)(p), rows, cols, ld)
	return s == s
}
