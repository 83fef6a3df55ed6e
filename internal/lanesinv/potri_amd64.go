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

// The same loops in AVX2 (potri_avx2_amd64.s, written by gen.go from the
// AVX-512 text), two ymm halves for each zmm vector.
//
//go:noescape
func trtriLowerF64AVX2(grp *float64, n, gld int)

//go:noescape
func trtriLowerF32AVX2(grp *float32, n, gld int)

//go:noescape
func lauumLowerF64AVX2(grp *float64, n, gld int)

//go:noescape
func lauumLowerF32AVX2(grp *float32, n, gld int)

//go:noescape
func trtriUpperF64AVX2(grp *float64, n, gld int)

//go:noescape
func trtriUpperF32AVX2(grp *float32, n, gld int)

//go:noescape
func lauumUpperF64AVX2(grp *float64, n, gld int)

//go:noescape
func lauumUpperF32AVX2(grp *float32, n, gld int)

// potriAsm runs Lower's (lower) or Upper's assembly, AVX-512 where
// simd.AVX512 is set and AVX2 where simd.AVX2 is, when the group's rows
// are whole 64-byte vectors of T (L is lanes.Lanes[T]()), and reports
// whether it did. n >= 1 and g holds the group.
func potriAsm[T batchlas.Float](lower bool, g []T, n, gld, L int) bool {
	if !(simd.AVX512 || simd.AVX2) || L != lanes.Lanes[T]() {
		return false
	}
	p := unsafe.Pointer(&g[0])
	f64, f32 := (*float64)(p), (*float32)(p)
	switch {
	case simd.AVX512 && L == 8 && lower:
		trtriLowerF64(f64, n, gld)
		lauumLowerF64(f64, n, gld)
	case simd.AVX512 && L == 8:
		trtriUpperF64(f64, n, gld)
		lauumUpperF64(f64, n, gld)
	case simd.AVX512 && lower:
		trtriLowerF32(f32, n, gld)
		lauumLowerF32(f32, n, gld)
	case simd.AVX512:
		trtriUpperF32(f32, n, gld)
		lauumUpperF32(f32, n, gld)
	case L == 8 && lower:
		trtriLowerF64AVX2(f64, n, gld)
		lauumLowerF64AVX2(f64, n, gld)
	case L == 8:
		trtriUpperF64AVX2(f64, n, gld)
		lauumUpperF64AVX2(f64, n, gld)
	case lower:
		trtriLowerF32AVX2(f32, n, gld)
		lauumLowerF32AVX2(f32, n, gld)
	default:
		trtriUpperF32AVX2(f32, n, gld)
		lauumUpperF32AVX2(f32, n, gld)
	}
	return true
}
