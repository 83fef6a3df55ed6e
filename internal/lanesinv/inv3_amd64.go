//go:build amd64 && !purego

package lanesinv

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// inv3F64 and inv3F32 are Inverse3's loops in AVX-512 (inv3_amd64.s,
// written by gen3.go). k holds small, -0, 1, 2 and 3 (and 1/small for
// float32); float64's idx the lanes' offsets in a (its gather's) and then
// in x (its scatter's), in elements.
//
//go:noescape
func inv3F64(x, a *float64, sx, sa, groups int, k *[5]float64, idx *[16]int64, info *int32) (failed bool)

//go:noescape
func inv3F32(x, a *float32, sx, sa, groups int, k *[6]float32, info *int32) (failed bool)

// inverse3Runs reports whether inverse3 has an assembly loop here.
func inverse3Runs[T batchlas.Float]() bool { return simd.AVX512 }

// inverse3 runs the assembly loop when it can; the operands are checked.
func inverse3[T batchlas.Float](x, a []T, sx, sa, groups int, small T, info []int32) (ran, failed bool) {
	if !inverse3Runs[T]() {
		return false, false
	}
	xp, ap := unsafe.Pointer(&x[0]), unsafe.Pointer(&a[0])
	if unsafe.Sizeof(small) == 4 {
		s := float32(small)
		k := [6]float32{s, float32(math.Copysign(0, -1)), 1, 2, 3, 1 / s}
		return true, inv3F32((*float32)(xp), (*float32)(ap), sx, sa, groups, &k, &info[0])
	}
	var idx [16]int64
	for l := range 8 {
		idx[l], idx[8+l] = int64(l*sa), int64(l*sx)
	}
	k := [5]float64{float64(small), math.Copysign(0, -1), 1, 2, 3}
	return true, inv3F64((*float64)(xp), (*float64)(ap), sx, sa, groups, &k, &idx, &info[0])
}
