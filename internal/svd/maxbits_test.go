package svd

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// maxMagnitudeBits (the assembly where it runs) and its Go twin agree on
// matrices whose columns straddle the vector width and its tail, with
// padding between columns that must not be read as entries, negative
// zeros, subnormals, infinities and NaNs.
func TestMaxMagnitudeBitsPathsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	specials := []float64{math.Copysign(0, -1), 0x1p-1070, -math.MaxFloat64, math.Inf(-1), math.NaN(), -1e300}
	for _, m := range []int{1, 7, 8, 9, 15, 16, 17, 31, 33, 64} {
		for _, n := range []int{1, 2, 5} {
			for _, special := range append([]float64{0}, specials...) {
				ld := m + 3
				// A 64-bit matrix with huge padding (which a wrong mask
				// or stride would pick up) and a float32 one alike.
				x64 := make([]float64, (n-1)*ld+m)
				x32 := make([]float32, (n-1)*ld+m)
				for i := range x64 {
					x64[i], x32[i] = 1e308, 3e38
				}
				for c := range n {
					for rr := range m {
						v := r.NormFloat64()
						x64[c*ld+rr], x32[c*ld+rr] = v, float32(v)
					}
				}
				if special != 0 {
					i := (n-1)*ld + m - 1 // the last entry: in a tail when m is not a multiple
					x64[i], x32[i] = special, float32(special)
				}
				b64 := unsafe.Slice((*uint64)(unsafe.Pointer(&x64[0])), len(x64))
				b32 := unsafe.Slice((*uint32)(unsafe.Pointer(&x32[0])), len(x32))
				if got, want := maxMagnitudeBits(b64, m, n, ld, 1<<63-1), maxMagnitudeBitsGo(b64, m, n, ld, 1<<63-1); got != want {
					t.Errorf("float64 m=%d n=%d special %v: %#x, twin %#x", m, n, special, got, want)
				}
				if got, want := maxMagnitudeBits(b32, m, n, ld, 1<<31-1), maxMagnitudeBitsGo(b32, m, n, ld, 1<<31-1); got != want {
					t.Errorf("float32 m=%d n=%d special %v: %#x, twin %#x", m, n, special, got, want)
				}
			}
		}
	}
}
