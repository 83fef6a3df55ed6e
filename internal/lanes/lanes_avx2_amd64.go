//go:build amd64 && !purego

package lanes

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The AVX2 kernels of lanes_avx2_amd64.s (written by gen_avx2.go), for
// x86-64-v3 CPUs: each works on one half of a group, the lanes of one
// 32-byte half of every vector, and the wrappers below call it on both
// halves. Strides and ld count elements (vectors in chol), gap, ahead, rs
// and cs bytes; masks[r] has the first r lanes set.
//
//go:noescape
func packAVX2F64(grp, src *float64, stride, ld, rows, cols int, count uint64, masks *[4][4]int64, gap, ahead int)

//go:noescape
func packAVX2F32(grp, src *float32, stride, ld, rows, cols int, count uint64, masks *[8][8]int32, gap, ahead int)

//go:noescape
func unpackAVX2F64(dst, grp *float64, stride, ld, rows, cols int, lanes uint64, masks *[4][4]int64, gap, ahead int)

//go:noescape
func unpackAVX2F32(dst, grp *float32, stride, ld, rows, cols int, lanes uint64, masks *[8][8]int32, gap, ahead int)

//go:noescape
func cholLLAVX2F64(a, b *float64, n, nrhs, ld, lower int) (done int)

//go:noescape
func cholLLAVX2F32(a, b *float32, n, nrhs, ld, lower int) (done int)

// The row masks of a chunk with r rows (index r; 0 is never used).
var (
	rowMasksF64 = func() (m [4][4]int64) {
		for r := range m {
			for i := range r {
				m[r][i] = -1
			}
		}
		return m
	}()
	rowMasksF32 = func() (m [8][8]int32) {
		for r := range m {
			for i := range r {
				m[r][i] = -1
			}
		}
		return m
	}()
)

// halfLanes is the number of lanes in one 32-byte half of a group.
func halfLanes[T batchlas.Float]() int { return Lanes[T]() / 2 }

// packAVX2 is packAsm's gather on the AVX2 assembly, one half of the
// group at a time; a half with no matrix (count <= its first lane) is
// zeroed without reading src.
func packAVX2[T batchlas.Float](g, src []T, stride, ld, rows, cols, count, gld int) {
	H := halfLanes[T]()
	gap, ahead := (gld-rows)*64, aheadBytes[T](stride)
	for h := 0; h < 2; h++ {
		c, s := count-h*H, src
		if c > 0 {
			s = src[h*H*stride:]
		} else {
			c = 0
		}
		gp, sp := unsafe.Pointer(&g[h*H]), unsafe.Pointer(&s[0])
		if H == 4 {
			packAVX2F64((*float64)(gp), (*float64)(sp), stride, ld, rows, cols, uint64(c), &rowMasksF64, gap, ahead)
		} else {
			packAVX2F32((*float32)(gp), (*float32)(sp), stride, ld, rows, cols, uint64(c), &rowMasksF32, gap, ahead)
		}
	}
}

// unpackAVX2 is unpackAsm's scatter on the AVX2 assembly, one half of
// the group at a time; a half with no lane in mask is skipped.
func unpackAVX2[T batchlas.Float](dst, g []T, stride, ld, rows, cols int, mask uint64, gld int) {
	H := halfLanes[T]()
	gap, ahead := (gld-rows)*64, aheadBytes[T](stride)
	for h := 0; h < 2; h++ {
		m := mask >> (h * H) & (1<<H - 1)
		if m == 0 {
			continue
		}
		dp, gp := unsafe.Pointer(&dst[h*H*stride]), unsafe.Pointer(&g[h*H])
		if H == 4 {
			unpackAVX2F64((*float64)(dp), (*float64)(gp), stride, ld, rows, cols, m, &rowMasksF64, gap, ahead)
		} else {
			unpackAVX2F32((*float32)(dp), (*float32)(gp), stride, ld, rows, cols, m, &rowMasksF32, gap, ahead)
		}
	}
}

//go:noescape
func cholSmallAVX2F64(a, b *float64, n, nrhs, lower int) (done0, done1 int)

//go:noescape
func cholSmallAVX2F32(a, b *float32, n, nrhs, lower int) (done0, done1 int)

// cholSmallMax is the largest order cholSmallAVX2F64 and
// cholSmallAVX2F32 take (cholSmallMax in gen_avx2.go).
const cholSmallMax = 8

// cholAVX2 is cholRun's Cholesky on the AVX2 assembly; rs and cs count
// vectors. Orders up to cholSmallMax with the group's own leading
// dimension run unrolled on the whole group, the others by columns one
// half of the group at a time (cholLLAVX2); a half either kernel stopped
// in, at a failing pivot, is finished by cholFinish.
func cholAVX2[T batchlas.Float](a, b []T, n, nrhs, rs, cs, ld int, info []T) {
	H := halfLanes[T]()
	lower := 0
	if rs == 1 {
		lower = 1
	}
	var done [2]int
	if n <= cholSmallMax && ld == GroupLD(n) {
		var bp unsafe.Pointer
		if nrhs > 0 {
			bp = unsafe.Pointer(&b[0])
		}
		ap := unsafe.Pointer(&a[0])
		if H == 4 {
			done[0], done[1] = cholSmallAVX2F64((*float64)(ap), (*float64)(bp), n, nrhs, lower)
		} else {
			done[0], done[1] = cholSmallAVX2F32((*float32)(ap), (*float32)(bp), n, nrhs, lower)
		}
	} else {
		for h := range done {
			var bp unsafe.Pointer
			if nrhs > 0 {
				bp = unsafe.Pointer(&b[h*H])
			}
			ap := unsafe.Pointer(&a[h*H])
			if H == 4 {
				done[h] = cholLLAVX2F64((*float64)(ap), (*float64)(bp), n, nrhs, ld, lower)
			} else {
				done[h] = cholLLAVX2F32((*float32)(ap), (*float32)(bp), n, nrhs, ld, lower)
			}
		}
	}
	for h, j0 := range done {
		if j0 < 0 { // factored and solved
			clear(info[h*H : h*H+H])
			continue
		}
		cholFinish(a, b, n, nrhs, rs, cs, ld, info, h*H, h*H+H, j0)
	}
}

//go:noescape
func luAVX2F64(a, b, piv *float64, n, nrhs, ld int, k *[3]float64)

//go:noescape
func luAVX2F32(a, b, piv *float32, n, nrhs, ld int, k *[3]float32)

//go:noescape
func luSmallAVX2F64(a, b, piv *float64, n, nrhs, ld int, k *[3]float64, idx *[luSmallMax][4]float64)

//go:noescape
func luSmallAVX2F32(a, b, piv *float32, n, nrhs, ld int, k *[3]float32, idx *[luSmallMax][8]float32)

// The row numbers as T, one 32-byte vector each: luSmallAVX2's pivot
// rows and swap masks compare with them.
var (
	rowNumbersF64 = func() (v [luSmallMax][4]float64) {
		for i := range v {
			for l := range v[i] {
				v[i][l] = float64(i)
			}
		}
		return v
	}()
	rowNumbersF32 = func() (v [luSmallMax][8]float32) {
		for i := range v {
			for l := range v[i] {
				v[i][l] = float32(i)
			}
		}
		return v
	}()
)

// luAVX2 is luRun's LU on the AVX2 assembly: orders 2..luSmallMax with
// the group's own leading dimension unrolled (luSmallAVX2), the others by
// columns (luAVX2F); both take the whole group in one call.
func luAVX2[T batchlas.Float](a, b, piv []T, n, nrhs, ld int, k *[3]T) {
	H := halfLanes[T]()
	kp := unsafe.Pointer(k)
	if n >= 2 && n <= luSmallMax && ld == GroupLD(n) {
		var bp unsafe.Pointer
		if nrhs > 0 {
			bp = unsafe.Pointer(&b[0])
		}
		ap, pp := unsafe.Pointer(&a[0]), unsafe.Pointer(&piv[0])
		if H == 4 {
			luSmallAVX2F64((*float64)(ap), (*float64)(bp), (*float64)(pp), n, nrhs, ld, (*[3]float64)(kp), &rowNumbersF64)
		} else {
			luSmallAVX2F32((*float32)(ap), (*float32)(bp), (*float32)(pp), n, nrhs, ld, (*[3]float32)(kp), &rowNumbersF32)
		}
		return
	}
	var bp unsafe.Pointer
	if nrhs > 0 {
		bp = unsafe.Pointer(&b[0])
	}
	ap, pp := unsafe.Pointer(&a[0]), unsafe.Pointer(&piv[0])
	if H == 4 {
		luAVX2F64((*float64)(ap), (*float64)(bp), (*float64)(pp), n, nrhs, ld, (*[3]float64)(kp))
	} else {
		luAVX2F32((*float32)(ap), (*float32)(bp), (*float32)(pp), n, nrhs, ld, (*[3]float32)(kp))
	}
}

//go:noescape
func invSolveAVX2F64(a, x, sig *float64, n int, k *[3]float64)

//go:noescape
func invSolveAVX2F32(a, x, sig *float32, n int, k *[3]float32)

// invAVX2 is invRun's inverse (orders 2..invSmallMax, ld = GroupLD(n)) on
// the AVX2 assembly: luAVX2 factors the group, diagInfo reads its info,
// and invSolveAVX2 solves each half's columns from the identity with the
// rows swapped as the factorization swapped them (sig, built here from
// the pivots as invGo builds sigma).
func invAVX2[T batchlas.Float](a, x, piv []T, n, ld int, k *[3]T, info []T) {
	luAVX2(a, nil, piv, n, 0, ld, k)
	diagInfo(a, n, ld, info)
	H, L := halfLanes[T](), Lanes[T]()
	var sig [invSmallMax * 8]T
	kp := unsafe.Pointer(k)
	for h := 0; h < 2; h++ {
		for r := range n {
			for l := range H {
				sig[r*H+l] = T(r)
			}
		}
		for j := 0; j < n-1; j++ {
			for l := range H {
				p := int(piv[j*L+h*H+l])
				sig[j*H+l], sig[p*H+l] = sig[p*H+l], sig[j*H+l]
			}
		}
		ap, xp, sp := unsafe.Pointer(&a[h*H]), unsafe.Pointer(&x[h*H]), unsafe.Pointer(&sig[0])
		if H == 4 {
			invSolveAVX2F64((*float64)(ap), (*float64)(xp), (*float64)(sp), n, (*[3]float64)(kp))
		} else {
			invSolveAVX2F32((*float32)(ap), (*float32)(xp), (*float32)(sp), n, (*[3]float32)(kp))
		}
	}
}

//go:noescape
func jacobiAVX2F64(a, v *float64, n, sweeps int, kv *float64, sched *int64, w *float64) (rotated uint64, made int)

//go:noescape
func jacobiAVX2F32(a, v *float32, n, sweeps int, kv *float32, sched *int64, w *float32) (rotated uint64, made int)

// jacobiAVX2 is jacobi's Jacobi on the AVX2 assembly, the whole group in
// one call. kv holds the constants of k as 32-byte vectors, in the
// order tiny, eps^2, one, low, the sign bit, up, and then the mask that
// clears the sign bit: memory operands, as the 16 ymm registers cannot
// keep them.
func jacobiAVX2[T batchlas.Float](a, v []T, n, sweeps int, k *[6]T, sched []int64, w []T) (uint64, int) {
	H := halfLanes[T]()
	var kv [7 * 8]T
	abs := T(math.Float64frombits(math.MaxInt64))
	if H == 8 {
		abs = T(math.Float32frombits(math.MaxInt32))
	}
	for i, x := range [7]T{k[0], k[1], k[2], k[3], k[4], k[5], abs} {
		for l := range H {
			kv[i*H+l] = x
		}
	}
	var vp unsafe.Pointer
	if v != nil {
		vp = unsafe.Pointer(&v[0])
	}
	ap, kp, wp := unsafe.Pointer(&a[0]), unsafe.Pointer(&kv[0]), unsafe.Pointer(&w[0])
	if H == 4 {
		return jacobiAVX2F64((*float64)(ap), (*float64)(vp), n, sweeps, (*float64)(kp), &sched[0], (*float64)(wp))
	}
	return jacobiAVX2F32((*float32)(ap), (*float32)(vp), n, sweeps, (*float32)(kp), &sched[0], (*float32)(wp))
}

//go:noescape
func tridiagAVX2F64(a *float64, n, ld int, d, e, w *float64, k *[3]float64)

//go:noescape
func tridiagAVX2F32(a *float32, n, ld int, d, e, w *float32, k *[3]float32)

// tridiagAVX2 is tridiagRun's reduction on the AVX2 assembly, one half of
// the group at a time; k holds 1, -0.5 and -0.
func tridiagAVX2[T batchlas.Float](a []T, n, ld int, d, e, w []T, k *[3]T) {
	H := halfLanes[T]()
	kp := unsafe.Pointer(k)
	for h := 0; h < 2; h++ {
		var ep unsafe.Pointer
		if n > 1 {
			ep = unsafe.Pointer(&e[h*H])
		}
		ap, dp, wp := unsafe.Pointer(&a[h*H]), unsafe.Pointer(&d[h*H]), unsafe.Pointer(&w[h*H])
		if H == 4 {
			tridiagAVX2F64((*float64)(ap), n, ld, (*float64)(dp), (*float64)(ep), (*float64)(wp), (*[3]float64)(kp))
		} else {
			tridiagAVX2F32((*float32)(ap), n, ld, (*float32)(dp), (*float32)(ep), (*float32)(wp), (*[3]float32)(kp))
		}
	}
}
