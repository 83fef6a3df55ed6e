package tri

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/internal/vec"
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

// inverseByColumns is Inverse as xTRTI2 writes it, one Axpy per column of
// the triangular product: the reference whose bits Inverse's four-column
// passes must keep.
func inverseByColumns[T batchlas.Float](lower bool, n int, t []T, ld int) {
	if lower {
		for c := n - 1; c >= 0; c-- {
			col := t[c*ld : c*ld+n]
			col[c] = 1 / col[c]
			tcc := -col[c]
			for k := n - 1; k > c; k-- {
				x := col[k]
				vec.Axpy(x, t[k*ld+k+1:k*ld+n], col[k+1:])
				col[k] = x * t[k*ld+k]
			}
			for k := c + 1; k < n; k++ {
				col[k] *= tcc
			}
		}
		return
	}
	for c := range n {
		col := t[c*ld : c*ld+c+1]
		col[c] = 1 / col[c]
		tcc := -col[c]
		for k := range c {
			x := col[k]
			vec.Axpy(x, t[k*ld:k*ld+k], col[:k])
			col[k] = x * t[k*ld+k]
		}
		for k := range c {
			col[k] *= tcc
		}
	}
}

// TestInverseKeepsColumnOrder: Inverse gives inverseByColumns' bits on
// every vector path, both triangles, both types, orders around the
// four-column blocks and the vector widths, tight and padded.
func TestInverseKeepsColumnOrder(t *testing.T) {
	testInverseKeepsColumnOrder[float64](t)
	testInverseKeepsColumnOrder[float32](t)
}

func testInverseKeepsColumnOrder[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, path := range simdpath.Paths() {
		restore := simdpath.Use(path)
		for _, lower := range []bool{true, false} {
			for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 31, 33, 64, 65} {
				for _, pad := range []int{0, 3} {
					ld := n + pad
					a := make([]T, n*ld)
					for i := range a {
						a[i] = T(r.NormFloat64() / math.Sqrt(float64(n)))
					}
					for j := range n {
						a[j*ld+j] = T(2 + r.Float64())
					}
					got, want := slices.Clone(a), slices.Clone(a)
					Inverse(lower, n, got, ld)
					inverseByColumns(lower, n, want, ld)
					testmat.SameBits(t, fmt.Sprintf("%T %s lower=%v n=%d ld=%d", T(0), path, lower, n, ld), got, want)
				}
			}
		}
		restore()
	}
}

// upperTimesTransposeByColumns is TimesTranspose's upper triangle with
// one Axpy per column: the reference whose bits its four-column passes
// must keep.
func upperTimesTransposeByColumns[T batchlas.Float](n int, t []T, ld int) {
	for i := range n {
		ci := t[i*ld : i*ld+i+1]
		uii := ci[i]
		for j := range ci[:i] {
			ci[j] *= uii
		}
		var d T
		for k := i + 1; k < n; k++ {
			x := t[k*ld+i]
			vec.Axpy(x, t[k*ld:k*ld+i], ci[:i])
			d += x * x
		}
		ci[i] = uii*uii + d
	}
}

// TestTimesTransposeKeepsColumnOrder: the upper TimesTranspose gives
// upperTimesTransposeByColumns' bits on every vector path.
func TestTimesTransposeKeepsColumnOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, path := range simdpath.Paths() {
		restore := simdpath.Use(path)
		for _, n := range []int{1, 2, 4, 5, 8, 9, 13, 17, 33, 65} {
			ld := n + 1
			a := make([]float64, n*ld)
			for i := range a {
				a[i] = r.NormFloat64()
			}
			got, want := slices.Clone(a), slices.Clone(a)
			TimesTranspose(false, n, got, ld)
			upperTimesTransposeByColumns(n, want, ld)
			testmat.SameBits(t, fmt.Sprintf("%s n=%d", path, n), got, want)
		}
		restore()
	}
}

// BenchmarkInverse times Inverse on one well-conditioned triangle per
// order and side (the matrix restored from a copy each time, the copy
// timed too).
func BenchmarkInverse(b *testing.B) {
	for _, n := range []int{32, 128} {
		for _, lower := range []bool{false, true} {
			a, ld := triangle(rand.New(rand.NewPCG(9, 10)), lower, n)
			x := slices.Clone(a)
			b.Run(fmt.Sprintf("n=%d/lower=%v", n, lower), func(b *testing.B) {
				for b.Loop() {
					copy(x, a)
					Inverse(lower, n, x, ld)
				}
			})
		}
	}
}
