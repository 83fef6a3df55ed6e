//go:build amd64 && !purego

package vec

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 kernels of vec_amd64.s: nfull whole 64-byte vectors of
// rows, then the lanes of mask.
//
//go:noescape
func rotFwdF64(z *float64, ld, k, nfull int, mask uint64, c, s *float64)

//go:noescape
func rotBwdF64(z *float64, ld, k, nfull int, mask uint64, c, s *float64)

//go:noescape
func rotFwdF32(z *float32, ld, k, nfull int, mask uint64, c, s *float32)

//go:noescape
func rotBwdF32(z *float32, ld, k, nfull int, mask uint64, c, s *float32)

//go:noescape
func reflectF64(v *float64, nfull int, mask uint64, a *float64, lda, ncols int, tau *float64)

//go:noescape
func reflectF32(v *float32, nfull int, mask uint64, a *float32, lda, ncols int, tau *float32)

// split cuts rows into whole vectors of T and the mask of the rest.
func split[T batchlas.Float](rows int) (nfull int, mask uint64) {
	W := width[T]()
	return rows / W, 1<<(rows%W) - 1
}

// rotAsm runs the assembly when simd.AVX512 is set (the CPU and the
// presented device level are x86-64-v4) and reports whether it did.
func rotAsm[T batchlas.Float](forward bool, z []T, ld, rows, k int, c, s []T) bool {
	if !simd.AVX512 {
		return false
	}
	nfull, mask := split[T](rows)
	zp, cp, sp := unsafe.Pointer(&z[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(&s[0])
	switch {
	case width[T]() == 8 && forward:
		rotFwdF64((*float64)(zp), ld, k, nfull, mask, (*float64)(cp), (*float64)(sp))
	case width[T]() == 8:
		rotBwdF64((*float64)(zp), ld, k, nfull, mask, (*float64)(cp), (*float64)(sp))
	case forward:
		rotFwdF32((*float32)(zp), ld, k, nfull, mask, (*float32)(cp), (*float32)(sp))
	default:
		rotBwdF32((*float32)(zp), ld, k, nfull, mask, (*float32)(cp), (*float32)(sp))
	}
	return true
}

// reflectAsm runs the assembly when simd.AVX512 is set and reports
// whether it did.
func reflectAsm[T batchlas.Float](v, a []T, ld, ncols int, tau T) bool {
	if !simd.AVX512 {
		return false
	}
	nfull, mask := split[T](len(v))
	vp, ap, tp := unsafe.Pointer(&v[0]), unsafe.Pointer(&a[0]), unsafe.Pointer(&tau)
	if width[T]() == 8 {
		reflectF64((*float64)(vp), nfull, mask, (*float64)(ap), ld, ncols, (*float64)(tp))
	} else {
		reflectF32((*float32)(vp), nfull, mask, (*float32)(ap), ld, ncols, (*float32)(tp))
	}
	return true
}
