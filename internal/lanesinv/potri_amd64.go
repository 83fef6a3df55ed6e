//go:build amd64 && !purego

package lanesinv

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// Lower's and Upper's two loops in AVX-512 (potri_amd64.s, written by
// gen.go: `go generate`), lowerGo's and upperGo's twins.
//
//go:noescape
func trtriLowerF64(grp *float64, n, gld int)

//go:noescape
func trtriLowerF32(grp *float32, n, gld int)

//go:noescape
func lauumLowerF64(grp *float64, n, gld int)

//go:noescape
func lauumLowerF32(grp *float32, n, gld int)

//go:noescape
func trtriUpperF64(grp *float64, n, gld int)

//go:noescape
func trtriUpperF32(grp *float32, n, gld int)

//go:noescape
func lauumUpperF64(grp *float64, n, gld int)

//go:noescape
func lauumUpperF32(grp *float32, n, gld int)

// potriAsm runs Lower's (lower) or Upper's assembly when simd.AVX512 is
// set and the group's rows are whole vectors of T (L is
// lanes.Lanes[T]()), and reports whether it did. n >= 1 and g holds the
// group.
func potriAsm[T batchlas.Float](lower bool, g []T, n, gld, L int) bool {
	if !simd.AVX512 || L != lanes.Lanes[T]() {
		return false
	}
	p := unsafe.Pointer(&g[0])
	switch {
	case L == 8 && lower:
		trtriLowerF64((*float64)(p), n, gld)
		lauumLowerF64((*float64)(p), n, gld)
	case L == 8:
		trtriUpperF64((*float64)(p), n, gld)
		lauumUpperF64((*float64)(p), n, gld)
	case lower:
		trtriLowerF32((*float32)(p), n, gld)
		lauumLowerF32((*float32)(p), n, gld)
	default:
		trtriUpperF32((*float32)(p), n, gld)
		lauumUpperF32((*float32)(p), n, gld)
	}
	return true
}
