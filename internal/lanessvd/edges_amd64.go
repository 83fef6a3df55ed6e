//go:build amd64 && !purego

package lanessvd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 twins of scaleGo and valuesGo (edges_amd64.s). values'
// assembly leaves lane l's k-th value at buf[k*L+l], from where the Go
// side copies the lanes it did into s.
//
//go:noescape
func scaleF64(grp *float64, nn int, mask uint64, h int, exps *[16]int32) (active uint64)

//go:noescape
func scaleF32(grp *float32, nn int, mask uint64, h int, exps *[16]int32) (active uint64)

//go:noescape
func valuesF64(grp *float64, n int, ok uint64, exps *[16]int32, minSum float64, buf *float64) (done uint64)

//go:noescape
func valuesF32(grp *float32, n int, ok uint64, exps *[16]int32, minSum float32, buf *float32) (done uint64)

// scale is Scale on the assembly, or its Go twin without AVX-512.
func scale[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) uint64 {
	if !simd.AVX512 {
		return scaleGo(g, nn, mask, h, exps)
	}
	p := unsafe.Pointer(&g[0])
	if Lanes[T]() == 8 {
		return scaleF64((*float64)(p), nn, mask, h, exps)
	}
	return scaleF32((*float32)(p), nn, mask, h, exps)
}

// values is Values on the assembly, or its Go twin without AVX-512.
func values[T batchlas.Float](g []T, n int, ok uint64, exps *[16]int32, minSum T, s []T, ss int) uint64 {
	if !simd.AVX512 {
		return valuesGo(g, n, ok, exps, minSum, s, ss)
	}
	L := Lanes[T]()
	var buf [MaxValuesOrder * 16]T
	p, b := unsafe.Pointer(&g[0]), unsafe.Pointer(&buf[0])
	var done uint64
	if L == 8 {
		done = valuesF64((*float64)(p), n, ok, exps, float64(minSum), (*float64)(b))
	} else {
		done = valuesF32((*float32)(p), n, ok, exps, float32(minSum), (*float32)(b))
	}
	for l := range L {
		if done&(1<<l) == 0 {
			continue
		}
		out := s[l*ss : l*ss+n]
		for k := range out {
			out[k] = buf[k*L+l]
		}
	}
	return done
}
