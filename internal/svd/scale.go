package svd

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// is32 reports whether T is float32.
func is32[T batchlas.Float]() bool {
	// The size is a constant of each instantiation (float32 and float64
	// are compiled apart), so the branches on it fold away; a type
	// assertion on any(z) was a call in every scaling helper.
	var z T
	return unsafe.Sizeof(z) == 4
}

// epsilon is T's machine epsilon, the gap from 1 to the next number
// (2^-52, 2^-23): the unit in which tolerances are stated.
func epsilon[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p-23)
	}
	return T(0x1p-52)
}

// smallSquare is the squared column norm below which a column takes no
// part in rotations: the smallest normal number over epsilon (2^-969,
// 2^-102). After the scaling of scaleExp such a column is more than 2^800
// (2^80 for float32) times shorter than the largest entry, far below what
// any normwise result can see, and its sums of squares may have lost
// digits to underflow, so a rotation computed from them would be noise.
func smallSquare[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p-102)
	}
	return T(0x1p-969)
}

// bigZeta is the |zeta| from which 1 + zeta^2 rounds to zeta^2, so that
// t = 1/(2 zeta) exactly as the full formula would give it, and from which
// t is computed that way, without forming zeta^2 (which could overflow).
func bigZeta[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p12)
	}
	return T(0x1p27)
}

// normalExp bounds the e for which 2^e is a normal T, so that x*2^e is one
// correctly rounded multiplication.
func normalExp[T batchlas.Float]() (lo, hi int) {
	if is32[T]() {
		return -126, 127
	}
	return -1022, 1023
}

// abs is |x| (NaN stays NaN).
func abs[T batchlas.Float](x T) T {
	return T(math.Abs(float64(x)))
}

// sqrt is the correctly rounded square root in T (for float32 the float64
// root rounded once more is the correctly rounded float32 root).
func sqrt[T batchlas.Float](x T) T {
	return T(math.Sqrt(float64(x)))
}

// ldexp is x * 2^e rounded once to T, for any e: float64 through
// math.Ldexp (which rounds a subnormal result once), float32 through
// float64, where the product is exact.
func ldexp[T batchlas.Float](x T, e int) T {
	// A product with a normal power of two is rounded once too, to the
	// same bits, and costs a multiplication instead of math.Ldexp's
	// unpacking.
	if f, ok := pow2[T](e); ok {
		return x * f
	}
	return T(math.Ldexp(float64(x), e))
}

// pow2 returns 2^e as a T and whether it is a normal T; when it is, x*f is
// x*2^e rounded once.
func pow2[T batchlas.Float](e int) (f T, ok bool) {
	lo, hi := normalExp[T]()
	if e < lo || e > hi {
		return 0, false
	}
	// 2^e built from its exponent bits: the same value as math.Ldexp(1,
	// e), without its unpacking (the finishing of a group of 3x3 SVDs
	// spent 7% of its time there).
	return T(math.Float64frombits(uint64(e+1023) << 52)), true
}

// maxAbs returns the largest |a_ij| of the m x n matrix a (leading
// dimension lda, only rows 0..m-1 read) and whether every entry is finite.
//
// It compares bit patterns: with the sign bit cleared, the patterns of
// the non-negative floats are ordered as their values, and those of the
// infinities and NaNs are above every finite one, so one running maximum
// over the columns, without a branch, answers both. It is the first pass
// over every matrix (gesvd's lanes kernel spent 15-22% of its time in the
// comparison loop this replaced, at orders 8 and 64 x 8).
func maxAbs[T batchlas.Float](m, n int, a []T, lda int) (T, bool) {
	p := unsafe.Pointer(unsafe.SliceData(a))
	if is32[T]() {
		top := maxMagnitudeBits(unsafe.Slice((*uint32)(p), len(a)), m, n, lda, 1<<31-1)
		if top >= 0x7f800000 {
			return 0, false
		}
		return T(math.Float32frombits(top)), true
	}
	top := maxMagnitudeBits(unsafe.Slice((*uint64)(p), len(a)), m, n, lda, 1<<63-1)
	if top >= 0x7ff0000000000000 {
		return 0, false
	}
	return T(math.Float64frombits(top)), true
}

// maxMagnitudeBitsGo is the largest of the m x n matrix's bit patterns
// (leading dimension lda) with the sign cleared (and mag), four running
// maxima at a time down each column: maxMagnitudeBits' Go twin.
func maxMagnitudeBitsGo[U uint32 | uint64](x []U, m, n, lda int, mag U) U {
	var t0, t1, t2, t3 U
	for j := 0; j < n; j++ {
		col := x[j*lda : j*lda+m]
		i := 0
		for ; i+3 < m; i += 4 {
			t0 = max(t0, col[i]&mag)
			t1 = max(t1, col[i+1]&mag)
			t2 = max(t2, col[i+2]&mag)
			t3 = max(t3, col[i+3]&mag)
		}
		for ; i < m; i++ {
			t0 = max(t0, col[i]&mag)
		}
	}
	return max(t0, t1, t2, t3)
}

// Finite reports whether every entry of the m x n matrix a (leading
// dimension lda) is finite: the check Jacobi makes first (its info k+1),
// for a caller that must find a non-finite matrix before any kernel runs
// (gesvd, whose every kernel then leaves the outputs as they were).
func Finite[T batchlas.Float](m, n int, a []T, lda int) bool {
	_, ok := maxAbs(m, n, a, lda)
	return ok
}

// scaleExp returns the e for which 2^e * amax lies in [2^(h-1), 2^h), h =
// scaleTop(m, n): see the package doc, step 3. A zero matrix is not
// scaled.
func scaleExp[T batchlas.Float](amax T, m, n int) int {
	if amax == 0 {
		return 0
	}
	_, ex := math.Frexp(float64(amax)) // amax in [2^(ex-1), 2^ex)
	return scaleTop[T](m, n) - ex
}

// scaleTop is the h of scaleExp: the largest with 2h + log2(m n) <= 896
// (float64) or 124 (float32).
func scaleTop[T batchlas.Float](m, n int) int {
	top := 896
	if is32[T]() {
		top = 124
	}
	lg := bits.Len(uint(m) * uint(n)) // m n < 2^lg
	return (top - lg) / 2
}

// load writes 2^e times the m x n matrix a (leading dimension lda) into
// dst (leading dimension ldd), transposed (dst n x m) when trans. The
// common case, 2^e a normal number, is one product per entry in loops of
// their own (a closure choosing per entry cost a tall 64 x 8 SVD a tenth
// of its time).
func load[T batchlas.Float](trans bool, m, n int, a []T, lda int, e int, dst []T, ldd int) {
	f, fast := pow2[T](e)
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+m]
		switch {
		case trans && fast:
			for i, x := range col {
				dst[j+i*ldd] = x * f
			}
		case trans:
			for i, x := range col {
				dst[j+i*ldd] = ldexp(x, e)
			}
		case fast:
			d := dst[j*ldd : j*ldd+m]
			for i, x := range col {
				d[i] = x * f
			}
		default:
			d := dst[j*ldd : j*ldd+m]
			for i, x := range col {
				d[i] = ldexp(x, e)
			}
		}
	}
}

// colNorm is the Euclidean norm of x, computed on x scaled by the power of
// two that brings its largest entry into [1/2, 1): no sum can overflow and
// nothing that matters underflows. NaN in x gives NaN.
func colNorm[T batchlas.Float](x []T) T {
	// The plain sum first: after scaleExp no square overflows, and where
	// the sum is far above the underflow threshold what underflowed
	// cannot matter; power-of-two scaling is exact there, so the scaled
	// sum below would give the same bits. Only a short column pays for it.
	var ss0 T
	for _, v := range x {
		ss0 += v * v
	}
	if plainSumHolds(ss0) {
		return sqrt(ss0)
	}
	var amax T
	for _, v := range x {
		a := abs(v)
		if a != a {
			return a
		}
		if a > amax {
			amax = a
		}
	}
	if amax == 0 {
		return 0
	}
	_, ex := math.Frexp(float64(amax))
	var ss T
	if f, ok := pow2[T](-ex); ok {
		for _, v := range x {
			w := v * f
			ss += w * w
		}
	} else {
		for _, v := range x {
			w := ldexp(v, -ex)
			ss += w * w
		}
	}
	return ldexp(sqrt(ss), ex)
}

// plainSumHolds reports whether colNorm takes the plain sum of squares ss
// as it is (its square root the norm) rather than summing again scaled.
func plainSumHolds[T batchlas.Float](ss T) bool {
	return ss >= plainNormMin[T]() && !math.IsInf(float64(ss), 0)
}

// plainNormMin is the least plain sum of squares colNorm takes as it is:
// above it every square that underflowed is below 2^-1074 (2^-149), a
// relative 2^-170 (2^-55) or less of the sum per entry.
func plainNormMin[T batchlas.Float]() T {
	if is32[T]() {
		return T(0x1p-94)
	}
	return T(0x1p-900)
}
