//go:build amd64 && !purego

package potrf

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:generate go run gen.go

// The AVX-512 loops of rows8 (rows8_amd64.s): ld in bytes, n >= 0 rows.
//
//go:noescape
func rows8F64(c *float64, ld int, n int, l *[64]float64)

//go:noescape
func rows8F32(c *float32, ld int, n int, l *[64]float32)

// rows8 solves n rows of the 8 columns of x (leading dimension ld) against
// the diagonal block in l, in place (lowerFactor8): the assembly where
// simd.AVX512 (the tile's switch, so tests can run both paths), rows8Go
// otherwise.
func rows8[T batchlas.Float](x []T, ld, n int, l *[64]T) {
	if !simd.AVX512 {
		rows8Go(x, ld, n, l)
		return
	}
	x = x[:7*ld+n] // the assembly reads and writes within it
	var z T
	if unsafe.Sizeof(z) == 8 {
		rows8F64((*float64)(unsafe.Pointer(&x[0])), ld*8, n, (*[64]float64)(unsafe.Pointer(l)))
		return
	}
	rows8F32((*float32)(unsafe.Pointer(&x[0])), ld*4, n, (*[64]float32)(unsafe.Pointer(l)))
}
