//go:build amd64 && !purego

package lanes

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 Jacobi of jacobi_amd64.s; v may be nil.
//
//go:noescape
func jacobiF64(a, v *float64, n, sweeps int, k *[6]float64, sched *int64, w *float64) (rotated uint64, made int)

//go:noescape
func jacobiF32(a, v *float32, n, sweeps int, k *[6]float32, sched *int64, w *float32) (rotated uint64, made int)

// jacobi runs the assembly when simd.AVX512 is set (the CPU and the
// presented device level are x86-64-v4), the Go twin otherwise.
func jacobi[T batchlas.Float](a, v []T, n, sweeps int, k *[6]T, sched []int64, w []T) (uint64, int) {
	if !simd.AVX512 {
		return jacobiGo(a, v, n, sweeps, k, sched, w)
	}
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	ap, kp, wp := unsafe.Pointer(&a[0]), unsafe.Pointer(k), unsafe.Pointer(&w[0])
	if Lanes[T]() == 8 {
		return jacobiF64((*float64)(ap), (*float64)(vp), n, sweeps, (*[6]float64)(kp), &sched[0], (*float64)(wp))
	}
	return jacobiF32((*float32)(ap), (*float32)(vp), n, sweeps, (*[6]float32)(kp), &sched[0], (*float32)(wp))
}
