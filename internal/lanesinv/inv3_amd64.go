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

// inv3AVX2F64 and inv3AVX2F32 are Inverse3's loops in AVX2
// (inv3_avx2_amd64.s, written by gen3_avx2.go), a block of four float64
// or eight float32 lanes (half a group) at a time. k's first six vectors
// hold small, the mask of every bit but the sign's, 1, 2, 3 and 1/small
// in every lane; the others are the loops' scratch.
//
//go:noescape
func inv3AVX2F64(x, a *float64, sx, sa, blocks int, k *[inv3Vectors][4]float64, info *int32) (failed bool)

//go:noescape
func inv3AVX2F32(x, a *float32, sx, sa, blocks int, k *[inv3Vectors][8]float32, info *int32) (failed bool)

// inv3Vectors is the length of the AVX2 loops' k (kVectors in
// gen3_avx2.go).
const inv3Vectors = 24

// inverse3Runs reports whether inverse3 has an assembly loop here: the
// AVX-512 one, or the AVX2 one on x86-64-v3.
func inverse3Runs[T batchlas.Float]() bool { return simd.AVX512 || simd.AVX2 }

// inverse3 runs the assembly loop when it can; the operands are checked.
func inverse3[T batchlas.Float](x, a []T, sx, sa, groups int, small T, info []int32) (ran, failed bool) {
	if !inverse3Runs[T]() {
		return false, false
	}
	xp, ap := unsafe.Pointer(&x[0]), unsafe.Pointer(&a[0])
	if !simd.AVX512 {
		return true, inverse3AVX2(xp, ap, sx, sa, groups, small, info)
	}
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

// inverse3AVX2 runs the AVX2 loop on groups whole groups, two blocks
// each.
func inverse3AVX2[T batchlas.Float](xp, ap unsafe.Pointer, sx, sa, groups int, small T, info []int32) bool {
	if unsafe.Sizeof(small) == 4 {
		var k [inv3Vectors][8]float32
		s := float32(small)
		for l := range 8 {
			k[0][l], k[1][l], k[2][l], k[3][l], k[4][l], k[5][l] = s, math.Float32frombits(math.MaxInt32), 1, 2, 3, 1/s
		}
		return inv3AVX2F32((*float32)(xp), (*float32)(ap), sx, sa, 2*groups, &k, &info[0])
	}
	var k [inv3Vectors][4]float64
	s := float64(small)
	for l := range 4 {
		k[0][l], k[1][l], k[2][l], k[3][l], k[4][l], k[5][l] = s, math.Float64frombits(math.MaxInt64), 1, 2, 3, 1/s
	}
	return inv3AVX2F64((*float64)(xp), (*float64)(ap), sx, sa, 2*groups, &k, &info[0])
}
