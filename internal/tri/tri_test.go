package tri

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// triangle is a random well-conditioned n x n triangle (leading dimension
// n+2), the other triangle and the padding NaN: the kernels must not
// read them.
func triangle(r *rand.Rand, lower bool, n int) ([]float64, int) {
	ld := n + 2
	t := make([]float64, ld*n)
	for i := range t {
		t[i] = math.NaN()
	}
	for c := range n {
		for row := range n {
			if row == c {
				t[c*ld+row] = 2 + r.Float64()
			} else if (row > c) == lower {
				t[c*ld+row] = r.NormFloat64() / math.Sqrt(float64(n))
			}
		}
	}
	return t, ld
}

// at is element (row, c) of the triangle in t, zero outside it.
func at(lower bool, t []float64, ld, row, c int) float64 {
	if row != c && (row > c) != lower {
		return 0
	}
	return t[c*ld+row]
}

// TestInverse: T*inv(T) = I to a few n eps, for both triangles at orders
// around the vector width; the other triangle (NaN) is neither read nor
// written.
func TestInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, lower := range []bool{true, false} {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 16, 17, 33} {
			a, ld := triangle(r, lower, n)
			x := append([]float64(nil), a...)
			Inverse(lower, n, x, ld)
			for c := range n {
				for row := range n {
					var s float64
					for k := range n {
						s += at(lower, a, ld, row, k) * at(lower, x, ld, k, c)
					}
					if row == c {
						s--
					}
					if !(math.Abs(s) <= 16*float64(n)*0x1p-52) {
						t.Fatalf("lower=%v n=%d: (T*inv(T) - I)(%d,%d) = %g", lower, n, row, c, s)
					}
					if row != c && (row > c) != lower && !math.IsNaN(x[c*ld+row]) {
						t.Fatalf("lower=%v n=%d: (%d,%d) outside the triangle written", lower, n, row, c)
					}
				}
			}
		}
	}
}

// TestTimesTranspose: the triangle of L^T*L (lower) or U*U^T (upper)
// against the product formed from the triangle, the other triangle left.
func TestTimesTranspose(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, lower := range []bool{true, false} {
		for _, n := range []int{1, 2, 3, 7, 8, 9, 16, 17, 33} {
			a, ld := triangle(r, lower, n)
			x := append([]float64(nil), a...)
			TimesTranspose(lower, n, x, ld)
			what := fmt.Sprintf("lower=%v n=%d", lower, n)
			for c := range n {
				for row := range n {
					if row != c && (row > c) != lower {
						if !math.IsNaN(x[c*ld+row]) {
							t.Fatalf("%s: (%d,%d) outside the triangle written", what, row, c)
						}
						continue
					}
					var want float64
					for k := range n {
						if lower { // (L^T L)(row, c) = sum_k L(k, row) L(k, c)
							want += at(lower, a, ld, k, row) * at(lower, a, ld, k, c)
						} else { // (U U^T)(row, c) = sum_k U(row, k) U(c, k)
							want += at(lower, a, ld, row, k) * at(lower, a, ld, c, k)
						}
					}
					if got := x[c*ld+row]; !(math.Abs(got-want) <= 8*float64(n)*0x1p-52*(math.Abs(want)+1)) {
						t.Fatalf("%s: (%d,%d) = %v, want %v", what, row, c, got, want)
					}
				}
			}
		}
	}
}
