package svd

import (
	"math"
	"testing"
)

// pow2 is 2^e exactly where 2^e is a normal T, and refuses the rest.
func TestPow2(t *testing.T) {
	check := func(name string, lo, hi int, got func(int) (float64, bool)) {
		for e := -1100; e <= 1100; e++ {
			f, ok := got(e)
			want := e >= lo && e <= hi
			if ok != want {
				t.Fatalf("%s: pow2(%d) ok = %v, want %v", name, e, ok, want)
			}
			if ok && f != math.Ldexp(1, e) {
				t.Fatalf("%s: pow2(%d) = %g, want %g", name, e, f, math.Ldexp(1, e))
			}
		}
	}
	check("float64", -1022, 1023, func(e int) (float64, bool) { f, ok := pow2[float64](e); return f, ok })
	check("float32", -126, 127, func(e int) (float64, bool) { f, ok := pow2[float32](e); return float64(f), ok })
	if !is32[float32]() || is32[float64]() {
		t.Fatal("is32 does not tell float32 from float64")
	}
}
