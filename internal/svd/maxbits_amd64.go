//go:build amd64 && !purego

package svd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:noescape
func maxBits64(x *uint64, m, n, ld int) uint64

//go:noescape
func maxBits32(x *uint32, m, n, ld int) uint32

// maxBitsRows is the least column length maxMagnitudeBits gives the
// assembly: shorter columns would be its masked tail alone, a call per
// few entries (the sign convention's strided rows, one entry per
// column, among them); the Go loop serves them.
const maxBitsRows = 8

// maxMagnitudeBits is the largest of the m x n matrix's bit patterns
// (leading dimension lda) with the sign cleared (and mag, which must be
// the mask that clears the sign: the assembly's own): the assembly for
// columns of a vector or more (and AVX-512), else the Go loop.
func maxMagnitudeBits[U uint32 | uint64](x []U, m, n, lda int, mag U) U {
	if !simd.AVX512 || m < maxBitsRows || n < 1 {
		return maxMagnitudeBitsGo(x, m, n, lda, mag)
	}
	x = x[:(n-1)*lda+m]
	if unsafe.Sizeof(x[0]) == 8 {
		return U(maxBits64((*uint64)(unsafe.Pointer(&x[0])), m, n, lda))
	}
	return U(maxBits32((*uint32)(unsafe.Pointer(&x[0])), m, n, lda))
}
