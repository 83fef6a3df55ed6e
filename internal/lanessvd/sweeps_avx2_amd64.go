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
	W := Lanes[T]() / 2
	k := halfKV{w: 32 / W} // six 32-byte constants, then the 64-byte mask
	sign := floatBits(T(math.Copysign(0, -1)))
	for i, x := range []uint64{floatBits(tol), floatBits(small), floatBits(big), floatBits(T(1)), sign, sign - 1} {
		k.set(i, x)
	}
	k.lanes(6, active)
	k.lanes(7, active>>W)
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	gp, kp := unsafe.Pointer(&g[0]), unsafe.Pointer(&k.b)
	if W == 4 {
		return sweepsAVX2F64((*float64)(gp), (*float64)(vp), n, maxSweeps, (*float64)(kp))
	}
	return sweepsAVX2F32((*float32)(gp), (*float32)(vp), n, maxSweeps, (*float32)(kp))
}
