package fma

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exact32 is a*b + c computed exactly and rounded once to float32.
func exact32(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}

// TestF32RoundsOnce checks F32 against the exact sum rounded once, on a
// case where rounding twice (to float64, then float32) differs and on
// random operands of mixed magnitude, cancellation included.
func TestF32RoundsOnce(t *testing.T) {
	// a*b - 1 = 2^-11 + 2^-24 exactly: rounded once it stays above the
	// midpoint, through float64 first it does not.
	a := float32(1 + 1.0/(1<<12))
	if got, want := F32(a, a, -1), exact32(a, a, -1); got != want {
		t.Fatalf("F32 = %v, want %v", got, want)
	}
	// Double rounding: the float64 sum lands on a float32 midpoint.
	x, y, z := float32(1+math.Pow(2, -23)), float32(1+math.Pow(2, -23)), float32(math.Pow(2, -60))
	if got, want := F32(x, y, z), exact32(x, y, z); got != want {
		t.Fatalf("F32(%v, %v, %v) = %v, want %v", x, y, z, got, want)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		a, b := float32(r.NormFloat64()), float32(r.NormFloat64())
		c := float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(60)-30)))
		if r.IntN(4) == 0 {
			c = -a * b // near-total cancellation
		}
		if got, want := F32(a, b, c), exact32(a, b, c); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("F32(%v, %v, %v) = %v, want %v", a, b, c, got, want)
		}
	}
}

func TestOfFloat64(t *testing.T) {
	a, b, c := 1+math.Pow(2, -30), 1+math.Pow(2, -30), -1.0
	if got, want := Of(a, b, c), math.FMA(a, b, c); got != want {
		t.Fatalf("Of = %v, want %v", got, want)
	}
	if got, want := Of(float32(1.5), 2, 1), float32(4); got != want {
		t.Fatalf("Of float32 = %v, want %v", got, want)
	}
}
