//go:build amd64 && !purego

package lanesinv

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// inv3F64 is Inverse3's loop in AVX-512 (inv3_amd64.s, written by
// gen3.go): k holds small, -0, 1, 2 and 3; idx the lanes' offsets in a
// (the gather's) and then in x (the scatter's), in elements.
//
//go:noescape
func inv3F64(x, a *float64, sx, sa, groups int, k *[5]float64, idx *[16]int64, info *int32) (failed bool)

// inverse3Runs reports whether inverse3 has an assembly loop for T here:
// float64 on AVX-512.
func inverse3Runs[T batchlas.Float]() bool {
	var zero T
	return unsafe.Sizeof(zero) == 8 && simd.AVX512
}

// inverse3 runs inv3F64 when it can; the operands are checked.
func inverse3[T batchlas.Float](x, a []T, sx, sa, groups int, small T, info []int32) (ran, failed bool) {
	if !inverse3Runs[T]() {
		return false, false
	}
	var idx [16]int64
	for l := range 8 {
		idx[l], idx[8+l] = int64(l*sa), int64(l*sx)
	}
	k := [5]float64{float64(small), math.Copysign(0, -1), 1, 2, 3}
	xp, ap := (*float64)(unsafe.Pointer(&x[0])), (*float64)(unsafe.Pointer(&a[0]))
	return true, inv3F64(xp, ap, sx, sa, groups, &k, &idx, &info[0])
}
