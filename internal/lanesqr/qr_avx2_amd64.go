//go:build amd64 && !purego

package lanesqr

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
)

// The AVX2 column steps of qr_avx2_amd64.s (written by gen_avx2.go), the
// AVX-512 ones' operations with each 64-byte vector as two halves; kv
// holds their constants, 32 bytes each (stepAVX2's order).
//
//go:noescape
func stepAVX2F64(a *float64, m, n, ld, j, kk, live, resume int, tau *float64, kv *float64) (stop int, careful uint64)

//go:noescape
func stepAVX2F32(a *float32, m, n, ld, j, kk, live, resume int, tau *float32, kv *float32) (stop int, careful uint64)

// stepAVX2 is step on the AVX2 assembly: kc's five bounds and one, then
// each lane's bit of live as a lane mask pattern (the low half's lanes,
// then the high half's), each broadcast over 32 bytes.
func stepAVX2[T batchlas.Float](a []T, m, n, ld, j, kk int, live uint64, r int, tau []T, kc *[6]T) (int, uint64) {
	L := lanes.Lanes[T]()
	h := L / 2
	var kv [8 * 8]T
	for i, x := range [6]T{kc[0], kc[1], kc[2], kc[3], kc[4], kc[5]} {
		for l := range h {
			kv[i*h+l] = x
		}
	}
	for l := range L {
		if h == 4 {
			kv[6*h+l] = T(math.Float64frombits(1 << l))
		} else {
			kv[6*h+l] = T(math.Float32frombits(1 << l))
		}
	}
	if h == 8 {
		return stepAVX2F32((*float32)(unsafe.Pointer(&a[0])), m, n, ld, j, kk, int(live), r, (*float32)(unsafe.Pointer(&tau[0])), (*float32)(unsafe.Pointer(&kv[0])))
	}
	return stepAVX2F64((*float64)(unsafe.Pointer(&a[0])), m, n, ld, j, kk, int(live), r, (*float64)(unsafe.Pointer(&tau[0])), (*float64)(unsafe.Pointer(&kv[0])))
}
