//go:build amd64 && !purego

package vec

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The AVX2 kernels of vec_avx2_amd64.s (written by gen_avx2.go), for
// x86-64-v3 CPUs: the AVX-512 kernels' operations with each 64-byte
// vector as two 32-byte halves. mask points at the 64-byte lane mask of
// the last vector that is not whole (tailMask), nil when there is none;
// dotAxpy's alpha, dotAxpy4's t and axpy2x4's pq are each broadcast to 32
// bytes (broadcast).

//go:noescape
func rotFwdAVX2F64(z *float64, ld, k, nfull int, mask *float64, c, s *float64)

//go:noescape
func rotBwdAVX2F64(z *float64, ld, k, nfull int, mask *float64, c, s *float64)

//go:noescape
func rotFwdAVX2F32(z *float32, ld, k, nfull int, mask *float32, c, s *float32)

//go:noescape
func rotBwdAVX2F32(z *float32, ld, k, nfull int, mask *float32, c, s *float32)

//go:noescape
func reflectAVX2F64(v *float64, nfull int, mask *float64, a *float64, lda, ncols int, tau *float64)

//go:noescape
func reflectAVX2F32(v *float32, nfull int, mask *float32, a *float32, lda, ncols int, tau *float32)

//go:noescape
func dotAVX2F64(v, x *float64, nfull int, mask *float64) float64

//go:noescape
func dotAVX2F32(v, x *float32, nfull int, mask *float32) float32

//go:noescape
func axpyAVX2F64(x, y *float64, nfull int, mask *float64, alpha *float64)

//go:noescape
func axpyAVX2F32(x, y *float32, nfull int, mask *float32, alpha *float32)

//go:noescape
func axpy2AVX2F64(x, y, z *float64, nfull int, mask *float64, a, b *float64)

//go:noescape
func axpy2AVX2F32(x, y, z *float32, nfull int, mask *float32, a, b *float32)

//go:noescape
func dotAxpyAVX2F64(a, x, y *float64, nfull int, mask *float64, alpha *float64) float64

//go:noescape
func dotAxpyAVX2F32(a, x, y *float32, nfull int, mask *float32, alpha *float32) float32

//go:noescape
func dotAxpy4AVX2F64(a *float64, lda int, x, y *float64, nfull int, mask *float64, t, dots *float64)

//go:noescape
func dotAxpy4AVX2F32(a *float32, lda int, x, y *float32, nfull int, mask *float32, t, dots *float32)

//go:noescape
func axpy4AVX2F64(a0, a1, a2, a3, y *float64, nfull int, mask *float64, t *float64)

//go:noescape
func axpy4AVX2F32(a0, a1, a2, a3, y *float32, nfull int, mask *float32, t *float32)

//go:noescape
func axpy2x4AVX2F64(a *float64, lda int, x, y *float64, nfull int, mask *float64, pq *float64)

//go:noescape
func axpy2x4AVX2F32(a *float32, lda int, x, y *float32, nfull int, mask *float32, pq *float32)

// The lane masks of a last vector with r rows (index r, 1 <= r < Width):
// all bits set in the first r elements.
var (
	tailMasksF64 = func() (m [8][8]float64) {
		for r := range m {
			for i := range r {
				m[r][i] = math.Float64frombits(math.MaxUint64)
			}
		}
		return m
	}()
	tailMasksF32 = func() (m [16][16]float32) {
		for r := range m {
			for i := range r {
				m[r][i] = math.Float32frombits(math.MaxUint32)
			}
		}
		return m
	}()
)

// tailMask returns the mask of the last vector of rows elements, nil when
// rows is a whole number of vectors.
func tailMask[T batchlas.Float](rows int) *T {
	r := rows % Width[T]()
	if r == 0 {
		return nil
	}
	if Width[T]() == 8 {
		return (*T)(unsafe.Pointer(&tailMasksF64[r][0]))
	}
	return (*T)(unsafe.Pointer(&tailMasksF32[r][0]))
}

// broadcast fills dst with each of xs repeated over 32 bytes.
func broadcast[T batchlas.Float](dst []T, xs ...T) {
	h := Width[T]() / 2
	for i, x := range xs {
		for l := range h {
			dst[i*h+l] = x
		}
	}
}

func rotAVX2[T batchlas.Float](forward bool, z []T, ld, rows, k int, c, s []T) {
	nfull, m := rows/Width[T](), tailMask[T](rows)
	switch {
	case Width[T]() == 8 && forward:
		rotFwdAVX2F64(f64(&z[0]), ld, k, nfull, f64(m), f64(&c[0]), f64(&s[0]))
	case Width[T]() == 8:
		rotBwdAVX2F64(f64(&z[0]), ld, k, nfull, f64(m), f64(&c[0]), f64(&s[0]))
	case forward:
		rotFwdAVX2F32(f32(&z[0]), ld, k, nfull, f32(m), f32(&c[0]), f32(&s[0]))
	default:
		rotBwdAVX2F32(f32(&z[0]), ld, k, nfull, f32(m), f32(&c[0]), f32(&s[0]))
	}
}

func reflectAVX2[T batchlas.Float](v, a []T, ld, ncols int, tau T) {
	nfull, m := len(v)/Width[T](), tailMask[T](len(v))
	if Width[T]() == 8 {
		reflectAVX2F64(f64(&v[0]), nfull, f64(m), f64(&a[0]), ld, ncols, f64(&tau))
	} else {
		reflectAVX2F32(f32(&v[0]), nfull, f32(m), f32(&a[0]), ld, ncols, f32(&tau))
	}
}

func dotAVX2[T batchlas.Float](v, x []T) T {
	nfull, m := len(v)/Width[T](), tailMask[T](len(v))
	if Width[T]() == 8 {
		return T(dotAVX2F64(f64(&v[0]), f64(&x[0]), nfull, f64(m)))
	}
	return T(dotAVX2F32(f32(&v[0]), f32(&x[0]), nfull, f32(m)))
}

func axpyAVX2[T batchlas.Float](alpha T, x, y []T) {
	nfull, m := len(x)/Width[T](), tailMask[T](len(x))
	if Width[T]() == 8 {
		axpyAVX2F64(f64(&x[0]), f64(&y[0]), nfull, f64(m), f64(&alpha))
	} else {
		axpyAVX2F32(f32(&x[0]), f32(&y[0]), nfull, f32(m), f32(&alpha))
	}
}

func axpy2AVX2[T batchlas.Float](a T, x []T, b T, y, z []T) {
	nfull, m := len(x)/Width[T](), tailMask[T](len(x))
	if Width[T]() == 8 {
		axpy2AVX2F64(f64(&x[0]), f64(&y[0]), f64(&z[0]), nfull, f64(m), f64(&a), f64(&b))
	} else {
		axpy2AVX2F32(f32(&x[0]), f32(&y[0]), f32(&z[0]), nfull, f32(m), f32(&a), f32(&b))
	}
}

func dotAxpyAVX2[T batchlas.Float](alpha T, a, x, y []T) T {
	nfull, m := len(a)/Width[T](), tailMask[T](len(a))
	var al [8]T
	broadcast(al[:], alpha)
	if Width[T]() == 8 {
		return T(dotAxpyAVX2F64(f64(&a[0]), f64(&x[0]), f64(&y[0]), nfull, f64(m), f64(&al[0])))
	}
	return T(dotAxpyAVX2F32(f32(&a[0]), f32(&x[0]), f32(&y[0]), nfull, f32(m), f32(&al[0])))
}

func dotAxpy4AVX2[T batchlas.Float](t *[4]T, a []T, lda int, x, y []T, dots *[4]T) {
	nfull, m := len(x)/Width[T](), tailMask[T](len(x))
	var tb [4 * 8]T
	broadcast(tb[:], t[:]...)
	if Width[T]() == 8 {
		dotAxpy4AVX2F64(f64(&a[0]), lda, f64(&x[0]), f64(&y[0]), nfull, f64(m), f64(&tb[0]), f64(&dots[0]))
	} else {
		dotAxpy4AVX2F32(f32(&a[0]), lda, f32(&x[0]), f32(&y[0]), nfull, f32(m), f32(&tb[0]), f32(&dots[0]))
	}
}

func axpy4AVX2[T batchlas.Float](t *[4]T, a0, a1, a2, a3, y []T) {
	nfull, m := len(y)/Width[T](), tailMask[T](len(y))
	if Width[T]() == 8 {
		axpy4AVX2F64(f64(&a0[0]), f64(&a1[0]), f64(&a2[0]), f64(&a3[0]), f64(&y[0]), nfull, f64(m), f64(&t[0]))
	} else {
		axpy4AVX2F32(f32(&a0[0]), f32(&a1[0]), f32(&a2[0]), f32(&a3[0]), f32(&y[0]), nfull, f32(m), f32(&t[0]))
	}
}

func axpy2x4AVX2[T batchlas.Float](pq *[8]T, a []T, lda int, x, y []T) {
	nfull, m := len(x)/Width[T](), tailMask[T](len(x))
	var pb [8 * 8]T
	broadcast(pb[:], pq[:]...)
	if Width[T]() == 8 {
		axpy2x4AVX2F64(f64(&a[0]), lda, f64(&x[0]), f64(&y[0]), nfull, f64(m), f64(&pb[0]))
	} else {
		axpy2x4AVX2F32(f32(&a[0]), lda, f32(&x[0]), f32(&y[0]), nfull, f32(m), f32(&pb[0]))
	}
}
