package fma

import (
	"math"
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// Of is a*b + c rounded once to T, as a vector fused multiply-add rounds.
func Of[T batchlas.Float](a, b, c T) T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return T(F32(float32(a), float32(b), float32(c)))
	}
	return T(math.FMA(float64(a), float64(b), float64(c)))
}

// F32 is a*b + c rounded once to float32. The product is exact in
// float64; the float64 sum is made round-to-odd (moved one unit towards
// the exact sum when it is inexact and its last bit is even), and a
// round-to-odd result with 29 bits to spare rounds to float32 as the
// exact sum would (Boldo and Melquiond).
func F32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	s := p + float64(c)
	pb := s - p
	err := (p - (s - pb)) + (float64(c) - pb)
	if err != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), err))
	}
	return float32(s)
}
