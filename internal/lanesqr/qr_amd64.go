//go:build amd64 && !purego

package lanesqr

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 column steps of qr_amd64.s (stepGo's twins).
//
//go:noescape
func stepF64(a *float64, m, n, ld, j, kk, live, resume int, tau *float64, k *[6]float64) (stop int, careful uint64)

//go:noescape
func stepF32(a *float32, m, n, ld, j, kk, live, resume int, tau *float32, k *[6]float32) (stop int, careful uint64)

// step runs the column steps in assembly where the CPU has AVX-512 or
// AVX2 (simd's switches), the Go twin elsewhere.
func step[T batchlas.Float](a []T, m, n, ld, j, kk int, live uint64, resume bool, tau []T, kc *[6]T, s *scratch[T]) (int, uint64) {
	if !simd.AVX512 && !simd.AVX2 {
		return stepGo(a, m, n, ld, j, kk, live, resume, tau, kc, s)
	}
	r := 0
	if resume {
		r = 1
	}
	if !simd.AVX512 {
		return stepAVX2(a, m, n, ld, j, kk, live, r, tau, kc)
	}
	if lanes16[T]() {
		return stepF32((*float32)(unsafe.Pointer(&a[0])), m, n, ld, j, kk, int(live), r, (*float32)(unsafe.Pointer(&tau[0])), (*[6]float32)(unsafe.Pointer(kc)))
	}
	return stepF64((*float64)(unsafe.Pointer(&a[0])), m, n, ld, j, kk, int(live), r, (*float64)(unsafe.Pointer(&tau[0])), (*[6]float64)(unsafe.Pointer(kc)))
}

func lanes16[T batchlas.Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}
