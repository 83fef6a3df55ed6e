//go:build amd64 && !purego

package vec

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The AVX-512 kernels of vec_amd64.s: nfull whole 64-byte vectors of
// rows, then the lanes of mask.
//
//go:noescape
func rotFwdF64(z *float64, ld, k, nfull int, mask uint64, c, s *float64)

//go:noescape
func rotBwdF64(z *float64, ld, k, nfull int, mask uint64, c, s *float64)

//go:noescape
func rotFwdF32(z *float32, ld, k, nfull int, mask uint64, c, s *float32)

//go:noescape
func rotBwdF32(z *float32, ld, k, nfull int, mask uint64, c, s *float32)

//go:noescape
func reflectF64(v *float64, nfull int, mask uint64, a *float64, lda, ncols int, tau *float64)

//go:noescape
func reflectF32(v *float32, nfull int, mask uint64, a *float32, lda, ncols int, tau *float32)

// split cuts rows into whole vectors of T and the mask of the rest.
func split[T batchlas.Float](rows int) (nfull int, mask uint64) {
	W := Width[T]()
	return rows / W, 1<<(rows%W) - 1
}

// rotAsm runs the AVX-512 assembly when simd.AVX512 is set (the CPU and
// the presented device level are x86-64-v4), the AVX2 one when simd.AVX2
// is, and reports whether either ran.
func rotAsm[T batchlas.Float](forward bool, z []T, ld, rows, k int, c, s []T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			rotAVX2(forward, z, ld, rows, k, c, s)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](rows)
	switch {
	case Width[T]() == 8 && forward:
		rotFwdF64(f64(&z[0]), ld, k, nfull, mask, f64(&c[0]), f64(&s[0]))
	case Width[T]() == 8:
		rotBwdF64(f64(&z[0]), ld, k, nfull, mask, f64(&c[0]), f64(&s[0]))
	case forward:
		rotFwdF32(f32(&z[0]), ld, k, nfull, mask, f32(&c[0]), f32(&s[0]))
	default:
		rotBwdF32(f32(&z[0]), ld, k, nfull, mask, f32(&c[0]), f32(&s[0]))
	}
	return true
}

// reflectAsm runs the assembly when simd.AVX512 or simd.AVX2 is set and
// reports whether it did.
func reflectAsm[T batchlas.Float](v, a []T, ld, ncols int, tau T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			reflectAVX2(v, a, ld, ncols, tau)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(v))
	if Width[T]() == 8 {
		reflectF64(f64(&v[0]), nfull, mask, f64(&a[0]), ld, ncols, f64(&tau))
	} else {
		reflectF32(f32(&v[0]), nfull, mask, f32(&a[0]), ld, ncols, f32(&tau))
	}
	return true
}

//go:noescape
func dotF64(v, x *float64, nfull int, mask uint64) float64

//go:noescape
func dotF32(v, x *float32, nfull int, mask uint64) float32

//go:noescape
func axpyF64(x, y *float64, nfull int, mask uint64, alpha *float64)

//go:noescape
func axpyF32(x, y *float32, nfull int, mask uint64, alpha *float32)

//go:noescape
func axpy2F64(x, y, z *float64, nfull int, mask uint64, a, b *float64)

//go:noescape
func axpy2F32(x, y, z *float32, nfull int, mask uint64, a, b *float32)

//go:noescape
func dotAxpyF64(a, x, y *float64, nfull int, mask uint64, alpha *float64) float64

//go:noescape
func dotAxpyF32(a, x, y *float32, nfull int, mask uint64, alpha *float32) float32

// f64 and f32 view a slice's first element, or a scalar, as the
// assembly's pointer types.
func f64[T batchlas.Float](p *T) *float64 { return (*float64)(unsafe.Pointer(p)) }
func f32[T batchlas.Float](p *T) *float32 { return (*float32)(unsafe.Pointer(p)) }

// dotAsm runs Dot's assembly when simd.AVX512 or simd.AVX2 is set
// (len(v) > 0).
func dotAsm[T batchlas.Float](v, x []T) (T, bool) {
	if !simd.AVX512 {
		if simd.AVX2 {
			return dotAVX2(v, x), true
		}
		return 0, false
	}
	nfull, mask := split[T](len(v))
	if Width[T]() == 8 {
		return T(dotF64(f64(&v[0]), f64(&x[0]), nfull, mask)), true
	}
	return T(dotF32(f32(&v[0]), f32(&x[0]), nfull, mask)), true
}

// axpyAsm runs Axpy's assembly when simd.AVX512 or simd.AVX2 is set
// (len(x) > 0).
func axpyAsm[T batchlas.Float](alpha T, x, y []T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			axpyAVX2(alpha, x, y)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(x))
	if Width[T]() == 8 {
		axpyF64(f64(&x[0]), f64(&y[0]), nfull, mask, f64(&alpha))
	} else {
		axpyF32(f32(&x[0]), f32(&y[0]), nfull, mask, f32(&alpha))
	}
	return true
}

// axpy2Asm runs Axpy2's assembly when simd.AVX512 or simd.AVX2 is set
// (len(x) > 0).
func axpy2Asm[T batchlas.Float](a T, x []T, b T, y, z []T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			axpy2AVX2(a, x, b, y, z)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(x))
	if Width[T]() == 8 {
		axpy2F64(f64(&x[0]), f64(&y[0]), f64(&z[0]), nfull, mask, f64(&a), f64(&b))
	} else {
		axpy2F32(f32(&x[0]), f32(&y[0]), f32(&z[0]), nfull, mask, f32(&a), f32(&b))
	}
	return true
}

// dotAxpyAsm runs DotAxpy's assembly when simd.AVX512 or simd.AVX2 is set
// (len(a) > 0).
func dotAxpyAsm[T batchlas.Float](alpha T, a, x, y []T) (T, bool) {
	if !simd.AVX512 {
		if simd.AVX2 {
			return dotAxpyAVX2(alpha, a, x, y), true
		}
		return 0, false
	}
	nfull, mask := split[T](len(a))
	if Width[T]() == 8 {
		return T(dotAxpyF64(f64(&a[0]), f64(&x[0]), f64(&y[0]), nfull, mask, f64(&alpha))), true
	}
	return T(dotAxpyF32(f32(&a[0]), f32(&x[0]), f32(&y[0]), nfull, mask, f32(&alpha))), true
}

//go:noescape
func dotAxpy4F64(a *float64, lda int, x, y *float64, nfull int, mask uint64, t, dots *float64)

//go:noescape
func dotAxpy4F32(a *float32, lda int, x, y *float32, nfull int, mask uint64, t, dots *float32)

//go:noescape
func axpy4F64(a0, a1, a2, a3, y *float64, nfull int, mask uint64, t *float64)

//go:noescape
func axpy4F32(a0, a1, a2, a3, y *float32, nfull int, mask uint64, t *float32)

//go:noescape
func axpy2x4F64(a *float64, lda int, x, y *float64, nfull int, mask uint64, pq *float64)

//go:noescape
func axpy2x4F32(a *float32, lda int, x, y *float32, nfull int, mask uint64, pq *float32)

// dotAxpy4Asm runs DotAxpy4's assembly when simd.AVX512 or simd.AVX2 is set
// (len(x) > 0).
func dotAxpy4Asm[T batchlas.Float](t *[4]T, a []T, lda int, x, y []T, dots *[4]T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			dotAxpy4AVX2(t, a, lda, x, y, dots)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(x))
	if Width[T]() == 8 {
		dotAxpy4F64(f64(&a[0]), lda, f64(&x[0]), f64(&y[0]), nfull, mask, f64(&t[0]), f64(&dots[0]))
	} else {
		dotAxpy4F32(f32(&a[0]), lda, f32(&x[0]), f32(&y[0]), nfull, mask, f32(&t[0]), f32(&dots[0]))
	}
	return true
}

// axpy4Asm runs Axpy4's assembly when simd.AVX512 or simd.AVX2 is set
// (len(y) > 0).
func axpy4Asm[T batchlas.Float](t *[4]T, a0, a1, a2, a3, y []T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			axpy4AVX2(t, a0, a1, a2, a3, y)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(y))
	if Width[T]() == 8 {
		axpy4F64(f64(&a0[0]), f64(&a1[0]), f64(&a2[0]), f64(&a3[0]), f64(&y[0]), nfull, mask, f64(&t[0]))
	} else {
		axpy4F32(f32(&a0[0]), f32(&a1[0]), f32(&a2[0]), f32(&a3[0]), f32(&y[0]), nfull, mask, f32(&t[0]))
	}
	return true
}

// axpy2x4Asm runs Axpy2x4's assembly when simd.AVX512 or simd.AVX2 is set
// (len(x) > 0).
func axpy2x4Asm[T batchlas.Float](pq *[8]T, a []T, lda int, x, y []T) bool {
	if !simd.AVX512 {
		if simd.AVX2 {
			axpy2x4AVX2(pq, a, lda, x, y)
		}
		return simd.AVX2
	}
	nfull, mask := split[T](len(x))
	if Width[T]() == 8 {
		axpy2x4F64(f64(&a[0]), lda, f64(&x[0]), f64(&y[0]), nfull, mask, f64(&pq[0]))
	} else {
		axpy2x4F32(f32(&a[0]), lda, f32(&x[0]), f32(&y[0]), nfull, mask, f32(&pq[0]))
	}
	return true
}
