package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// TestLevel1 checks Dot, Axpy, Axpy2 and DotAxpy on every path against
// float64 arithmetic (to a few units of T's roundoff), the entries past
// the length untouched, and, with AVX-512, the assembly against the Go
// twin bit for bit, on lengths that straddle a vector and its masked
// tail.
func TestLevel1(t *testing.T) {
	testLevel1[float64](t)
	testLevel1[float32](t)
}

func testLevel1[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	eps := unitRoundoff[T]()
	vector := func(n int) []T {
		x := columns[T](r, n, n+3, 1) // three poisoned entries past the end
		return x
	}
	for _, n := range append([]int{0}, rowCounts...) {
		x, y, z := vector(n), vector(n), vector(n)
		a, b := T(r.NormFloat64()), T(r.NormFloat64())
		// The float64 results and the size of their terms.
		var dot, dotScale float64
		for i := range n {
			dot += float64(x[i]) * float64(y[i])
			dotScale += math.Abs(float64(x[i]) * float64(y[i]))
		}
		checkDot := func(name string, got T) {
			if math.Abs(float64(got)-dot) > 2*float64(n+1)*eps*dotScale {
				t.Fatalf("%s: %v, want %v", name, got, dot)
			}
		}
		checkVec := func(name string, got []T, want func(i int) (float64, float64)) {
			for i, g := range got {
				if i >= n {
					if g != poison {
						t.Fatalf("%s: entry %d past the end written", name, i)
					}
					continue
				}
				w, scale := want(i)
				if math.Abs(float64(g)-w) > 4*eps*scale {
					t.Fatalf("%s: entry %d is %v, want %v", name, i, g, w)
				}
			}
		}
		var dots []T
		var outs [][]T
		for _, avx := range paths() {
			name := fmt.Sprintf("%T n=%d avx=%v", T(0), n, avx)
			withPath(avx, func() {
				d := Dot(x[:n], y)
				checkDot(name+" Dot", d)

				y1 := slices.Clone(y)
				Axpy(a, x[:n], y1)
				checkVec(name+" Axpy", y1, func(i int) (float64, float64) {
					p := float64(a) * float64(x[i])
					return p + float64(y[i]), math.Abs(p) + math.Abs(float64(y[i]))
				})

				z1 := slices.Clone(z)
				Axpy2(a, x[:n], b, y, z1)
				checkVec(name+" Axpy2", z1, func(i int) (float64, float64) {
					p, q := float64(a)*float64(x[i]), float64(b)*float64(y[i])
					return p + q + float64(z[i]), math.Abs(p) + math.Abs(q) + math.Abs(float64(z[i]))
				})

				z2 := slices.Clone(z)
				d2 := DotAxpy(a, x[:n], y, z2)
				checkDot(name+" DotAxpy's dot", d2)
				checkVec(name+" DotAxpy", z2, func(i int) (float64, float64) {
					p := float64(a) * float64(x[i])
					return p + float64(z[i]), math.Abs(p) + math.Abs(float64(z[i]))
				})
				dots = append(dots, d, d2)
				outs = append(outs, y1, z1, z2)
			})
		}
		if len(outs) == 6 {
			name := fmt.Sprintf("%T n=%d", T(0), n)
			testmat.SameBits(t, name+" dots", dots[:2], dots[2:])
			for i := range 3 {
				testmat.SameBits(t, name, outs[i], outs[3+i])
			}
		}
	}
}
