//go:build amd64 && !purego

package lu

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

//go:generate go run gen.go

// The AVX-512 loops of Rank1 (rank1_amd64.s): n rows of l, columns of t
// ld bytes apart, u the columns' factors.
//
//go:noescape
func rank1x1F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1x2F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1x3F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1x4F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1x1F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1x2F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1x3F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1x4F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1AVX2x1F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1AVX2x2F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1AVX2x3F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1AVX2x4F64(l *float64, n int, t *float64, ld int, u *[4]float64)

//go:noescape
func rank1AVX2x1F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1AVX2x2F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1AVX2x3F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func rank1AVX2x4F32(l *float32, n int, t *float32, ld int, u *[4]float32)

//go:noescape
func substF64(l *float64, ldl int, rows int, x *float64, ldx int, ncols int, masks *[8]uint64)

//go:noescape
func substF32(l *float32, ldl int, rows int, x *float32, ldx int, ncols int, masks *[8]uint64)

// substAsm is substituteUnitLower's solve of rows [r0, r1) (2 to 8 of
// them) of columns [s0, s1) (at least one) against the unit lower
// triangle of the diagonal block [r0, r1), on AVX-512 (callers check
// simd.AVX512) a column at a time (its rows one vector), in Rank1's order
// and arithmetic, so the bits are the Go loop's.
func substAsm[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) {
	rows := r1 - r0
	var masks [8]uint64
	all := uint64(1)<<rows - 1
	for j := range 7 {
		masks[j] = all &^ (uint64(1)<<(j+1) - 1)
	}
	masks[7] = all
	// The assembly reads L's columns r0 .. r1-2 and x's columns s0 ..
	// s1-1, rows r0 .. r1-1 of each: slicing checks they exist.
	l := a[r0*ld+r0 : (r1-2)*ld+r1]
	x := a[s0*ld+r0 : (s1-1)*ld+r1]
	var z T
	if unsafe.Sizeof(z) == 8 {
		substF64((*float64)(unsafe.Pointer(&l[0])), ld*8, rows, (*float64)(unsafe.Pointer(&x[0])), ld*8, s1-s0, &masks)
		return
	}
	substF32((*float32)(unsafe.Pointer(&l[0])), ld*4, rows, (*float32)(unsafe.Pointer(&x[0])), ld*4, s1-s0, &masks)
}

// rank1Asm subtracts l times u[c] from the cols (1 to 4) columns of t
// (leading dimension ld, len(l) rows each) on AVX-512 where simd.AVX512,
// on AVX2 where simd.AVX2 (callers check one is on; the tile's switches,
// so tests can run every path). Its arithmetic is Rank1's Go loop's,
// product then difference, so every path gives the same bits.
func rank1Asm[T batchlas.Float](l, t []T, ld, cols int, u *[4]T) {
	n := len(l)
	if n == 0 {
		return
	}
	t = t[:(cols-1)*ld+n] // the assembly reads and writes within it
	var z T
	if unsafe.Sizeof(z) == 8 {
		lp, tp, up := (*float64)(unsafe.Pointer(&l[0])), (*float64)(unsafe.Pointer(&t[0])), (*[4]float64)(unsafe.Pointer(u))
		switch {
		case simd.AVX512 && cols == 1:
			rank1x1F64(lp, n, tp, ld*8, up)
		case simd.AVX512 && cols == 2:
			rank1x2F64(lp, n, tp, ld*8, up)
		case simd.AVX512 && cols == 3:
			rank1x3F64(lp, n, tp, ld*8, up)
		case simd.AVX512:
			rank1x4F64(lp, n, tp, ld*8, up)
		case cols == 1:
			rank1AVX2x1F64(lp, n, tp, ld*8, up)
		case cols == 2:
			rank1AVX2x2F64(lp, n, tp, ld*8, up)
		case cols == 3:
			rank1AVX2x3F64(lp, n, tp, ld*8, up)
		default:
			rank1AVX2x4F64(lp, n, tp, ld*8, up)
		}
		return
	}
	lp, tp, up := (*float32)(unsafe.Pointer(&l[0])), (*float32)(unsafe.Pointer(&t[0])), (*[4]float32)(unsafe.Pointer(u))
	switch {
	case simd.AVX512 && cols == 1:
		rank1x1F32(lp, n, tp, ld*4, up)
	case simd.AVX512 && cols == 2:
		rank1x2F32(lp, n, tp, ld*4, up)
	case simd.AVX512 && cols == 3:
		rank1x3F32(lp, n, tp, ld*4, up)
	case simd.AVX512:
		rank1x4F32(lp, n, tp, ld*4, up)
	case cols == 1:
		rank1AVX2x1F32(lp, n, tp, ld*4, up)
	case cols == 2:
		rank1AVX2x2F32(lp, n, tp, ld*4, up)
	case cols == 3:
		rank1AVX2x3F32(lp, n, tp, ld*4, up)
	default:
		rank1AVX2x4F32(lp, n, tp, ld*4, up)
	}
}
