//go:build amd64 && !purego

package lanessvd

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 sweeps of sweeps_amd64.s (sweepsGo's twins); v may be nil,
// n >= 2, maxSweeps >= 1, active non-zero and within the lanes; k holds
// tol, small, big, 1 and -0 (the sign bit).
//
//go:noescape
func sweepsF64(grp, v *float64, n, maxSweeps int, active uint64, k *[5]float64) (rotated uint64)

//go:noescape
func sweepsF32(grp, v *float32, n, maxSweeps int, active uint64, k *[5]float32) (rotated uint64)

// sweeps runs the assembly when simd.AVX512 is set (the CPU and the
// presented device level are x86-64-v4), the Go twin otherwise.
func sweeps[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	if !simd.AVX512 {
		return sweepsGo(g, v, n, maxSweeps, active, tol, small, big)
	}
	k := [5]T{tol, small, big, 1, T(math.Copysign(0, -1))}
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	gp, kp := unsafe.Pointer(&g[0]), unsafe.Pointer(&k)
	if Lanes[T]() == 8 {
		return sweepsF64((*float64)(gp), (*float64)(vp), n, maxSweeps, active, (*[5]float64)(kp))
	}
	return sweepsF32((*float32)(gp), (*float32)(vp), n, maxSweeps, active, (*[5]float32)(kp))
}
