package svd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
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

// TestMaxAbs: maxAbs gives the largest magnitude and finiteness the
// definition gives, on every shape up to 6 x 5 with one special value
// (NaN, +-Inf, the largest finite, a subnormal, -0) at every position,
// and never reads the rows past m (NaN there).
func TestMaxAbs(t *testing.T) {
	testMaxAbs[float64](t, math.MaxFloat64, 4.9e-324)
	testMaxAbs[float32](t, math.MaxFloat32, 1.4e-45)
}

func testMaxAbs[T batchlas.Float](t *testing.T, big, sub float64) {
	r := rand.New(rand.NewPCG(8, 9))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), big, -big, sub, math.Copysign(0, -1)}
	for m := 1; m <= 6; m++ {
		for n := 1; n <= 5; n++ {
			lda := m + 2
			for pos := -1; pos < m*n; pos++ {
				for _, sp := range specials {
					a := make([]T, lda*n)
					for i := range a {
						a[i] = T(math.NaN())
					}
					for j := range n {
						for i := range m {
							a[i+j*lda] = T(r.NormFloat64())
						}
					}
					if pos >= 0 {
						a[pos%m+pos/m*lda] = T(sp)
					}
					want, wantOK := T(0), true
					for j := range n {
						for i := range m {
							x := math.Abs(float64(a[i+j*lda]))
							if math.IsNaN(x) || math.IsInf(x, 0) {
								wantOK = false
							}
							want = max(want, T(x))
						}
					}
					if !wantOK {
						want = 0
					}
					got, ok := maxAbs(m, n, a, lda)
					if ok != wantOK || math.Float64bits(float64(got)) != math.Float64bits(float64(want)) {
						t.Fatalf("%T %dx%d special %v at %d: got %v %v, want %v %v", T(0), m, n, sp, pos, got, ok, want, wantOK)
					}
				}
			}
		}
	}
}

// argmaxAbs (bit patterns) picks what the loop comparing values picks:
// the first entry of largest magnitude, never a NaN, on vectors with ties,
// signed zeros, infinities, subnormals and NaNs, with strides, for both
// types.
func TestArgmaxAbs(t *testing.T) {
	testArgmaxAbs[float64](t)
	testArgmaxAbs[float32](t)
}

func testArgmaxAbs[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pool := []T{0, T(math.Copysign(0, -1)), 1, -1, 2, -2, T(math.Inf(1)), T(math.Inf(-1)), T(math.NaN()), T(math.SmallestNonzeroFloat32), -T(math.SmallestNonzeroFloat32)}
	for trial := range 20000 {
		n, inc := r.IntN(12), 1+r.IntN(3)
		x := make([]T, max(1, n*inc))
		for i := range x {
			if r.IntN(3) == 0 {
				x[i] = pool[r.IntN(len(pool))]
			} else {
				x[i] = T(r.NormFloat64())
			}
		}
		if got, want := argmaxAbs(n, x, inc), argmaxAbsNaN(n, x, inc); got != want {
			t.Fatalf("trial %d %T n=%d inc=%d %v: argmaxAbs %d, the value loop %d", trial, T(0), n, inc, x, got, want)
		}
	}
}
