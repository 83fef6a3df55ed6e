//go:build amd64 && !purego

package lanes

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 Jacobi of lanes_amd64.s; v may be nil.
//
//go:noescape
func jacobiF64(a, v *float64, n, sweeps int, k *[6]float64, sched *int64, w *float64) (rotated uint64, made int)

//go:noescape
func jacobiF32(a, v *float32, n, sweeps int, k *[6]float32, sched *int64, w *float32) (rotated uint64, made int)

// jacobi runs the AVX-512 assembly when simd.AVX512 is set (the CPU and
// the presented device level are x86-64-v4), the AVX2 one when simd.AVX2
// is, the Go twin otherwise.
func jacobi[T batchlas.Float](a, v []T, n, ld, sweeps int, k *[6]T, sched []int64, w []T) (uint64, int) {
	if !simd.AVX512 {
		if simd.AVX2 {
			return jacobiAVX2(a, v, n, sweeps, k, sched, w)
		}
		return jacobiGo(a, v, n, ld, sweeps, k, sched, w)
	}
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	ap, kp, wp := unsafe.Pointer(&a[0]), unsafe.Pointer(k), unsafe.Pointer(&w[0])
	if Lanes[T]() == 8 {
		return jacobiF64((*float64)(ap), (*float64)(vp), n, sweeps, (*[6]float64)(kp), &sched[0], (*float64)(wp))
	}
	return jacobiF32((*float32)(ap), (*float32)(vp), n, sweeps, (*[6]float32)(kp), &sched[0], (*float32)(wp))
}

// The AVX-512 LU of lanes_amd64.s.
//
//go:noescape
func luF64(a, b, piv *float64, n, nrhs, ld int, k *[3]float64)

//go:noescape
func luF32(a, b, piv *float32, n, nrhs, ld int, k *[3]float32)

// The unrolled LU of lanes_amd64.s for orders 2..luSmallMax with
// ld = GroupLD(n) (luSmall in gen.go).
//
//go:noescape
func luSmallF64(a, b, piv *float64, n, nrhs, ld int, k *[3]float64)

//go:noescape
func luSmallF32(a, b, piv *float32, n, nrhs, ld int, k *[3]float32)

// luSmallMax is the largest order luSmallF64 and luSmallF32 take, and
// invSmallF64 and invSmallF32 (invSmallMax, which must be the same: the
// constant below does not compile otherwise).
const luSmallMax = 8

const _ = uint(luSmallMax-invSmallMax) + uint(invSmallMax-luSmallMax)

// luRun runs the AVX-512 assembly when simd.AVX512 is set, the AVX2 one
// when simd.AVX2 is, the Go twin otherwise.
func luRun[T batchlas.Float](a, b, piv []T, n, nrhs, ld int, k *[3]T) {
	if !simd.AVX512 {
		if simd.AVX2 {
			luAVX2(a, b, piv, n, nrhs, ld, k)
			return
		}
		luGo(a, b, piv, n, nrhs, ld, k)
		return
	}
	var bp unsafe.Pointer
	if nrhs > 0 {
		bp = unsafe.Pointer(&b[0])
	}
	ap, pp, kp := unsafe.Pointer(&a[0]), unsafe.Pointer(&piv[0]), unsafe.Pointer(k)
	if n >= 2 && n <= luSmallMax && ld == GroupLD(n) {
		if Lanes[T]() == 8 {
			luSmallF64((*float64)(ap), (*float64)(bp), (*float64)(pp), n, nrhs, ld, (*[3]float64)(kp))
			return
		}
		luSmallF32((*float32)(ap), (*float32)(bp), (*float32)(pp), n, nrhs, ld, (*[3]float32)(kp))
		return
	}
	if Lanes[T]() == 8 {
		luF64((*float64)(ap), (*float64)(bp), (*float64)(pp), n, nrhs, ld, (*[3]float64)(kp))
		return
	}
	luF32((*float32)(ap), (*float32)(bp), (*float32)(pp), n, nrhs, ld, (*[3]float32)(kp))
}

// The unrolled inverse of lanes_amd64.s for orders 2..luSmallMax with
// ld = GroupLD(n) (invSmall in gen.go).
//
//go:noescape
func invSmallF64(a, x, piv *float64, n, ld int, k *[3]float64, info *float64)

//go:noescape
func invSmallF32(a, x, piv *float32, n, ld int, k *[3]float32, info *float32)

// invRun runs the AVX-512 assembly when simd.AVX512 is set, the AVX2 one
// when simd.AVX2 is, the Go twin otherwise.
func invRun[T batchlas.Float](a, x, piv []T, n, ld int, k *[3]T, info []T) {
	if !simd.AVX512 {
		if simd.AVX2 {
			invAVX2(a, x, piv, n, ld, k, info)
			return
		}
		invGo(a, x, piv, n, ld, k, info)
		return
	}
	ap, xp, pp, kp, ip := unsafe.Pointer(&a[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&piv[0]), unsafe.Pointer(k), unsafe.Pointer(&info[0])
	if Lanes[T]() == 8 {
		invSmallF64((*float64)(ap), (*float64)(xp), (*float64)(pp), n, ld, (*[3]float64)(kp), (*float64)(ip))
		return
	}
	invSmallF32((*float32)(ap), (*float32)(xp), (*float32)(pp), n, ld, (*[3]float32)(kp), (*float32)(ip))
}

// The AVX-512 layout moves of lanes_amd64.s.
//
//go:noescape
func packF64(grp, src *float64, stride, ld, rows, cols, count int, mask uint64, gap, ahead int)

//go:noescape
func packF32(grp, src *float32, stride, ld, rows, cols, count int, mask uint64, gap, ahead int)

//go:noescape
func unpackF64(dst, grp *float64, stride, ld, rows, cols, count int, mask uint64, gap, ahead int)

//go:noescape
func unpackF32(dst, grp *float32, stride, ld, rows, cols, count int, mask uint64, gap, ahead int)

// aheadBytes is how far past a group's matrices the moves prefetch: whole
// groups (the same rows of later matrices), at least prefetchDistance
// bytes. A prefetch never faults, so one past the batch's end is
// harmless.
func aheadBytes[T batchlas.Float](stride int) int {
	group := Lanes[T]() * stride * int(unsafe.Sizeof(T(0)))
	if group <= 0 {
		return 0
	}
	return (prefetchDistance + group - 1) / group * group
}

// prefetchDistance is the least distance the moves prefetch ahead, in
// bytes. It must cover the memory's latency at the rate groups are
// moved: a group of 8 3x3 float64 matrices is 576 bytes, gathered in
// about 30 ns.
const prefetchDistance = 4096

// packAsm runs the assembly gather when simd.AVX512 or simd.AVX2 is set
// and reports whether it did.
func packAsm[T batchlas.Float](g, src []T, stride, ld, rows, cols, count, gld int) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			packAVX2(g, src, stride, ld, rows, cols, count, gld)
		}
		return simd.AVX2
	}
	gp, sp := unsafe.Pointer(&g[0]), unsafe.Pointer(&src[0])
	if Lanes[T]() == 8 {
		packF64((*float64)(gp), (*float64)(sp), stride, ld, rows, cols, count, 0, (gld-rows)*64, aheadBytes[T](stride))
	} else {
		packF32((*float32)(gp), (*float32)(sp), stride, ld, rows, cols, count, 0, (gld-rows)*64, aheadBytes[T](stride))
	}
	return true
}

// unpackAsm runs the assembly scatter when simd.AVX512 or simd.AVX2 is
// set and reports whether it did.
func unpackAsm[T batchlas.Float](dst, g []T, stride, ld, rows, cols int, mask uint64, gld int) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			unpackAVX2(dst, g, stride, ld, rows, cols, mask, gld)
		}
		return simd.AVX2
	}
	dp, gp := unsafe.Pointer(&dst[0]), unsafe.Pointer(&g[0])
	if Lanes[T]() == 8 {
		unpackF64((*float64)(dp), (*float64)(gp), stride, ld, rows, cols, 0, mask, (gld-rows)*64, aheadBytes[T](stride))
	} else {
		unpackF32((*float32)(dp), (*float32)(gp), stride, ld, rows, cols, 0, mask, (gld-rows)*64, aheadBytes[T](stride))
	}
	return true
}

// The AVX-512 Cholesky of lanes_amd64.s; rs and cs in bytes.
//
//go:noescape
func cholF64(a, b *float64, n, nrhs, rs, cs, ld int, info *float64)

//go:noescape
func cholF32(a, b *float32, n, nrhs, rs, cs, ld int, info *float32)

// cholRun runs the AVX-512 assembly when simd.AVX512 is set, the AVX2
// one when simd.AVX2 is, the Go twin otherwise; rs and cs count vectors.
func cholRun[T batchlas.Float](a, b []T, n, nrhs, rs, cs, ld int, info []T) {
	if !simd.AVX512 {
		if simd.AVX2 {
			cholAVX2(a, b, n, nrhs, rs, cs, ld, info)
			return
		}
		cholGo(a, b, n, nrhs, rs, cs, ld, info)
		return
	}
	var bp unsafe.Pointer
	if nrhs > 0 {
		bp = unsafe.Pointer(&b[0])
	}
	ap, ip := unsafe.Pointer(&a[0]), unsafe.Pointer(&info[0])
	if Lanes[T]() == 8 {
		cholF64((*float64)(ap), (*float64)(bp), n, nrhs, rs*64, cs*64, ld, (*float64)(ip))
		return
	}
	cholF32((*float32)(ap), (*float32)(bp), n, nrhs, rs*64, cs*64, ld, (*float32)(ip))
}

// The AVX-512 tridiagonal reduction of lanes_amd64.s; k holds 1, -0.5
// and -0 (the sign bit).
//
//go:noescape
func tridiagF64(a *float64, n, ld int, d, e, w *float64, k *[3]float64)

//go:noescape
func tridiagF32(a *float32, n, ld int, d, e, w *float32, k *[3]float32)

// tridiagRun runs the AVX-512 assembly when simd.AVX512 is set, the AVX2
// one when simd.AVX2 is, the Go twin otherwise.
func tridiagRun[T batchlas.Float](a []T, n, ld int, d, e, w []T) {
	if !simd.AVX512 && !simd.AVX2 {
		tridiagGo(a, n, ld, d, e, w)
		return
	}
	k := [3]T{1, -0.5, T(math.Copysign(0, -1))}
	if !simd.AVX512 {
		tridiagAVX2(a, n, ld, d, e, w, &k)
		return
	}
	var ep unsafe.Pointer
	if n > 1 {
		ep = unsafe.Pointer(&e[0])
	}
	ap, dp, wp, kp := unsafe.Pointer(&a[0]), unsafe.Pointer(&d[0]), unsafe.Pointer(&w[0]), unsafe.Pointer(&k)
	if Lanes[T]() == 8 {
		tridiagF64((*float64)(ap), n, ld, (*float64)(dp), (*float64)(ep), (*float64)(wp), (*[3]float64)(kp))
		return
	}
	tridiagF32((*float32)(ap), n, ld, (*float32)(dp), (*float32)(ep), (*float32)(wp), (*[3]float32)(kp))
}
