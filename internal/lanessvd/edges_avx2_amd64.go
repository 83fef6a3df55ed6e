//go:build amd64 && !purego

package lanessvd

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The AVX2 twins of scaleGo and finishGo (edges_avx2_amd64.s, written by
// gen_avx2.go), for x86-64-v3 CPUs: each works on one 32-byte half of a
// group (grp, v, norms and exps at the half's first lane) and the
// wrappers below call it on both. kv holds the constants, each broadcast
// over a half (gen_avx2.go's scaleKV and finishKV name them); finish's
// assembly leaves lane l's k-th norm at norms[k*L+l], unscaled.
//
//go:noescape
func scaleAVX2F64(grp *float64, nn int, kv *float64, exps *int32) (active uint64)

//go:noescape
func scaleAVX2F32(grp *float32, nn int, kv *float32, exps *int32) (active uint64)

//go:noescape
func finishAVX2F64(grp, v *float64, n int, kv *float64, flags int, norms *float64) (done uint64)

//go:noescape
func finishAVX2F32(grp, v *float32, n int, kv *float32, flags int, norms *float32) (done uint64)

// halfKV is a kv of 32-byte constants, filled one word of the element's
// width at a time. b comes first in the struct, which its int aligns to 8
// bytes, so the word stores through unsafe pointers are aligned (as
// checkptr wants them under -race).
type halfKV struct {
	b [8 * 32]byte
	w int // the element's bytes
}

// set broadcasts the low w bytes of bits over constant i.
func (k *halfKV) set(i int, bits uint64) {
	for j := 0; j < 32; j += k.w {
		if k.w == 8 {
			*(*uint64)(unsafe.Pointer(&k.b[32*i+j])) = bits
		} else {
			*(*uint32)(unsafe.Pointer(&k.b[32*i+j])) = uint32(bits)
		}
	}
}

// lanes sets constant i to the mask of the lanes of bits (bit j: the
// half's lane j).
func (k *halfKV) lanes(i int, bits uint64) {
	for j := 0; j < 32/k.w; j++ {
		var x uint64
		if bits>>j&1 != 0 {
			x = ^uint64(0)
		}
		for b := 0; b < k.w; b++ {
			k.b[32*i+j*k.w+b] = byte(x)
		}
	}
}

// floatBits is x's bit pattern in T's width.
func floatBits[T batchlas.Float](x T) uint64 {
	if f, ok := any(x).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(x))
}

// scaleAVX2 is Scale on the AVX2 assembly, half a group at a time.
func scaleAVX2[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) (active uint64) {
	L := Lanes[T]()
	W := L / 2
	k := halfKV{w: 32 / W}
	if W == 4 {
		k.set(1, 1<<63-1)
		k.set(2, 0x7ff0000000000000)
		k.set(3, math.Float64bits(0x1p64))
		k.set(4, uint64(h+1022))
		k.set(5, uint64(h+1022+64))
		k.set(6, 1000)
		k.set(7, 1023)
	} else {
		k.set(1, 1<<31-1)
		k.set(2, 0x7f800000)
		k.set(3, uint64(math.Float32bits(0x1p64)))
		k.set(4, uint64(h+126))
		k.set(5, uint64(h+126+64))
		k.set(6, 100)
		k.set(7, 127)
	}
	for half := range 2 {
		k.lanes(0, mask>>(W*half))
		p, kp, e := unsafe.Pointer(&g[W*half]), unsafe.Pointer(&k.b), &exps[W*half]
		var a uint64
		if W == 4 {
			a = scaleAVX2F64((*float64)(p), nn, (*float64)(kp), e)
		} else {
			a = scaleAVX2F32((*float32)(p), nn, (*float32)(kp), e)
		}
		active |= a << (W * half)
	}
	for l := L; l < 16; l++ {
		exps[l] = 0
	}
	return active
}

// finishAVX2 is Finish on the AVX2 assembly, half a group at a time; the
// values are scaled by 2^-e here, as they are copied out.
func finishAVX2[T batchlas.Float](g, v []T, n int, ok uint64, exps *[16]int32, minSum, eps T, wantU bool, s []T, ss int) (done uint64) {
	L := Lanes[T]()
	W := L / 2
	var norms [MaxFinishOrder * 16]T
	k := halfKV{w: 32 / W}
	k.set(0, floatBits(minSum))
	k.set(1, floatBits(eps))
	k.set(2, floatBits(T(math.Inf(1))))
	sign := floatBits(T(math.Copysign(0, -1)))
	k.set(3, sign-1) // every bit below the sign
	k.set(4, sign)
	flags := 0
	if wantU {
		flags |= 1
	}
	if v != nil {
		flags |= 2
	}
	for half := range 2 {
		okh := ok >> (W * half) & (1<<W - 1)
		if okh == 0 {
			continue
		}
		k.lanes(5, okh)
		var vp unsafe.Pointer
		if v != nil {
			vp = unsafe.Pointer(&v[W*half])
		}
		p, kp, b := unsafe.Pointer(&g[W*half]), unsafe.Pointer(&k.b), unsafe.Pointer(&norms[W*half])
		var d uint64
		if W == 4 {
			d = finishAVX2F64((*float64)(p), (*float64)(vp), n, (*float64)(kp), flags, (*float64)(b))
		} else {
			d = finishAVX2F32((*float32)(p), (*float32)(vp), n, (*float32)(kp), flags, (*float32)(b))
		}
		done |= d << (W * half)
	}
	for l := range L {
		if done&(1<<l) == 0 {
			continue
		}
		out := s[l*ss : l*ss+n]
		for k := range out {
			out[k] = ldexp(norms[k*L+l], -int(exps[l]))
		}
	}
	return done
}

// ldexp is T(math.Ldexp(float64(x), e)) (finishGo's scaling), in one
// product where that gives the same bits: a float64 times a power of two
// that is a normal number, rounded once; a float32 widened, times one
// that keeps the product a normal float64 (exact), then rounded once.
func ldexp[T batchlas.Float](x T, e int) T {
	lo, hi := -1022, 1023
	if Lanes[T]() == 16 {
		lo, hi = -800, 800
	}
	if lo <= e && e <= hi {
		return T(float64(x) * math.Float64frombits(uint64(e+1023)<<52))
	}
	return T(math.Ldexp(float64(x), e))
}
