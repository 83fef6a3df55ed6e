//go:build amd64 && !purego

package potrf

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:generate go run gen.go

// The AVX-512 and AVX2 loops of rows8 (rows8_amd64.s): ld in bytes,
// n >= 0 rows.
//
//go:noescape
func rows8F64(c *float64, ld int, n int, l *[64]float64)

//go:noescape
func rows8F32(c *float32, ld int, n int, l *[64]float32)

//go:noescape
func rows8AVX2F64(c *float64, ld int, n int, l *[64]float64)

//go:noescape
func rows8AVX2F32(c *float32, ld int, n int, l *[64]float32)

// rows8 solves n rows of the 8 columns of x (leading dimension ld) against
// the diagonal block in l, in place (lowerFactor8): the AVX-512 assembly
// where simd.AVX512, the AVX2 one where simd.AVX2 (the tile's switches,
// so tests can run every path), rows8Go otherwise.
func rows8[T batchlas.Float](x []T, ld, n int, l *[64]T) {
	if !simd.AVX512 && !simd.AVX2 {
		rows8Go(x, ld, n, l)
		return
	}
	x = x[:7*ld+n] // the assembly reads and writes within it
	var z T
	xp, lp := unsafe.Pointer(&x[0]), unsafe.Pointer(l)
	switch {
	case unsafe.Sizeof(z) == 8 && simd.AVX512:
		rows8F64((*float64)(xp), ld*8, n, (*[64]float64)(lp))
	case unsafe.Sizeof(z) == 8:
		rows8AVX2F64((*float64)(xp), ld*8, n, (*[64]float64)(lp))
	case simd.AVX512:
		rows8F32((*float32)(xp), ld*4, n, (*[64]float32)(lp))
	default:
		rows8AVX2F32((*float32)(xp), ld*4, n, (*[64]float32)(lp))
	}
}
