//go:build amd64 && !purego

package lanessvd

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The AVX2 sweeps of sweeps_avx2_amd64.s (written by gen_avx2.go), for
// x86-64-v3 CPUs: sweepsGo on both halves of a group in one call. kv
// holds tol, small, big, 1, the sign bit and its complement, each
// broadcast over a 32-byte half, then the mask of the active lanes over
// the 64-byte group (sweepsAVX2 fills it).
//
//go:noescape
func sweepsAVX2F64(grp, v *float64, n, maxSweeps int, kv *float64) (rotated uint64)

//go:noescape
func sweepsAVX2F32(grp, v *float32, n, maxSweeps int, kv *float32) (rotated uint64)

// sweepsAVX2 is sweeps on the AVX2 assembly.
func sweepsAVX2[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	var kv [32]uint64 // 256 bytes: six 32-byte constants and a 64-byte mask
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	gp, kp := unsafe.Pointer(&g[0]), unsafe.Pointer(&kv)
	if Lanes[T]() == 8 {
		for i, x := range []uint64{
			math.Float64bits(float64(tol)), math.Float64bits(float64(small)), math.Float64bits(float64(big)),
			math.Float64bits(1), 1 << 63, 1<<63 - 1,
		} {
			for j := range 4 {
				kv[4*i+j] = x
			}
		}
		for l := range 8 {
			if active>>l&1 != 0 {
				kv[24+l] = ^uint64(0)
			}
		}
		return sweepsAVX2F64((*float64)(gp), (*float64)(vp), n, maxSweeps, (*float64)(kp))
	}
	k32 := (*[64]uint32)(kp)
	for i, x := range []uint32{
		math.Float32bits(float32(tol)), math.Float32bits(float32(small)), math.Float32bits(float32(big)),
		math.Float32bits(1), 1 << 31, 1<<31 - 1,
	} {
		for j := range 8 {
			k32[8*i+j] = x
		}
	}
	for l := range 16 {
		if active>>l&1 != 0 {
			k32[48+l] = ^uint32(0)
		}
	}
	return sweepsAVX2F32((*float32)(gp), (*float32)(vp), n, maxSweeps, (*float32)(kp))
}
