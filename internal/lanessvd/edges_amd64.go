//go:build amd64 && !purego

package lanessvd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 twins of scaleGo and finishGo (edges_amd64.s, written by
// gen.go). finish's assembly leaves lane l's k-th value at norms[k*L+l],
// from where the Go side copies the lanes it did into s.
//
//go:noescape
func scaleF64(grp *float64, nn int, mask uint64, h int, exps *[16]int32) (active uint64)

//go:noescape
func scaleF32(grp *float32, nn int, mask uint64, h int, exps *[16]int32) (active uint64)

//go:noescape
func finishF64(grp, v *float64, n int, ok uint64, exps *[16]int32, k *[2]float64, flags int, norms *float64) (done uint64)

//go:noescape
func finishF32(grp, v *float32, n int, ok uint64, exps *[16]int32, k *[2]float32, flags int, norms *float32) (done uint64)

// scale is Scale on the AVX-512 assembly, on the AVX2 one (where h is
// in the range its factors cover), or the Go twin.
func scale[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) uint64 {
	if !simd.AVX512 {
		if lo, hi := scaleHRange[T](); simd.AVX2 && lo <= h && h <= hi {
			return scaleAVX2(g, nn, mask, h, exps)
		}
		return scaleGo(g, nn, mask, h, exps)
	}
	p := unsafe.Pointer(&g[0])
	if Lanes[T]() == 8 {
		return scaleF64((*float64)(p), nn, mask, h, exps)
	}
	return scaleF32((*float32)(p), nn, mask, h, exps)
}

// finish is Finish on the AVX-512 assembly, on the AVX2 one, or the Go
// twin.
func finish[T batchlas.Float](g, v []T, n int, ok uint64, exps *[16]int32, minSum, eps T, wantU bool, s []T, ss int) uint64 {
	if !simd.AVX512 {
		if simd.AVX2 {
			return finishAVX2(g, v, n, ok, exps, minSum, eps, wantU, s, ss)
		}
		return finishGo(g, v, n, ok, exps, minSum, eps, wantU, s, ss)
	}
	L := Lanes[T]()
	var norms [MaxFinishOrder * 16]T
	k := [2]T{minSum, eps}
	flags := 0
	if wantU {
		flags |= 1
	}
	var vp unsafe.Pointer
	if v != nil {
		flags |= 2
		vp = unsafe.Pointer(&v[0])
	}
	p, b, kp := unsafe.Pointer(&g[0]), unsafe.Pointer(&norms[0]), unsafe.Pointer(&k)
	var done uint64
	if L == 8 {
		done = finishF64((*float64)(p), (*float64)(vp), n, ok, exps, (*[2]float64)(kp), flags, (*float64)(b))
	} else {
		done = finishF32((*float32)(p), (*float32)(vp), n, ok, exps, (*[2]float32)(kp), flags, (*float32)(b))
	}
	for l := range L {
		if done&(1<<l) == 0 {
			continue
		}
		out := s[l*ss : l*ss+n]
		for k := range out {
			out[k] = norms[k*L+l]
		}
	}
	return done
}
