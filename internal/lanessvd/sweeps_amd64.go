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

//go:noescape
func lockstep2F64(g1, v1, g2, v2 *float64, n, maxSweeps int, active1, active2 uint64, k *[5]float64) (rotated1, rotated2 uint64)

//go:noescape
func lockstep2F32(g1, v1, g2, v2 *float32, n, maxSweeps int, active1, active2 uint64, k *[5]float32) (rotated1, rotated2 uint64)

//go:noescape
func sweeps2F64(g1, v1, g2, v2 *float64, n, maxSweeps int, active1, active2 uint64, k *[5]float64) (rotated1, rotated2 uint64)

//go:noescape
func sweeps2F32(g1, v1, g2, v2 *float32, n, maxSweeps int, active1, active2 uint64, k *[5]float32) (rotated1, rotated2 uint64)

// lockstepMax is the largest order swept by lockstep2 rather than by
// sweeps2's staggered steps: with columns of a few rows, a pass is too
// short to hide the other group's chain, and the staggered steps' extra
// branches cost more than they save (Sweeps2 to convergence on random
// float64 groups, one core of the Zen 5 guest: order 3 620 ns lockstep,
// 790 staggered; 4 1.22 and 1.31 us; 5 2.28 and 2.24; 8 8.4 and 7.7;
// 16 56 and 45).
const lockstepMax = 4

// sweeps2 is sweeps for two groups at once (Sweeps2).
func sweeps2[T batchlas.Float](g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	if !simd.AVX512 {
		if !simd.AVX2 {
			return sweeps2Go(g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
		}
		// One group a call: the AVX2 kernel overlaps the chains of a
		// group's two halves already.
		return eachGroup(sweepsAVX2[T], g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
	}
	k := [5]T{tol, small, big, 1, T(math.Copysign(0, -1))}
	var vp1, vp2 unsafe.Pointer
	if v1 != nil {
		vp1, vp2 = unsafe.Pointer(&v1[0]), unsafe.Pointer(&v2[0])
	}
	gp1, gp2, kp := unsafe.Pointer(&g1[0]), unsafe.Pointer(&g2[0]), unsafe.Pointer(&k)
	if n <= lockstepMax {
		if Lanes[T]() == 8 {
			return lockstep2F64((*float64)(gp1), (*float64)(vp1), (*float64)(gp2), (*float64)(vp2), n, maxSweeps, active1, active2, (*[5]float64)(kp))
		}
		return lockstep2F32((*float32)(gp1), (*float32)(vp1), (*float32)(gp2), (*float32)(vp2), n, maxSweeps, active1, active2, (*[5]float32)(kp))
	}
	if Lanes[T]() == 8 {
		return sweeps2F64((*float64)(gp1), (*float64)(vp1), (*float64)(gp2), (*float64)(vp2), n, maxSweeps, active1, active2, (*[5]float64)(kp))
	}
	return sweeps2F32((*float32)(gp1), (*float32)(vp1), (*float32)(gp2), (*float32)(vp2), n, maxSweeps, active1, active2, (*[5]float32)(kp))
}

// sweeps runs the AVX-512 assembly when simd.AVX512 is set (the CPU and
// the presented device level are x86-64-v4), the AVX2 assembly when
// simd.AVX2 is (x86-64-v3), the Go twin otherwise.
func sweeps[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	if !simd.AVX512 {
		if simd.AVX2 {
			return sweepsAVX2(g, v, n, maxSweeps, active, tol, small, big)
		}
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
