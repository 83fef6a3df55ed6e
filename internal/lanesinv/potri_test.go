package lanesinv

import (
	"fmt"
	"math"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "potri_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen.go", "potri_avx2_amd64.s")
}

// orders straddle the assembly's loops: the dot products' four rows a
// turn and their tails of one, two and three, one vector's worth of lanes
// and more.
var orders = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 31, 32, 33}

// Lanes of the test groups that hold no factor of a positive definite
// matrix: a zero on the diagonal, and a NaN and an infinity in it. Their
// results are garbage, the same garbage on both paths.
const (
	zeroLane = 2
	nanLane  = 5
)

// factors is a group of lane triangles (lower or upper) of order n with
// leading dimension gld: a diagonal in [1, 2] and entries off it in
// [-0.5, 0.5), the other triangle and the rows past n filled with a
// marker (-7) that neither path may change, and the two odd lanes.
func factors[T batchlas.Float](seed uint64, n, gld int, lower bool) []T {
	L := lanes.Lanes[T]()
	r := testmat.Rand(seed)
	g := make([]T, n*gld*L)
	for c := range n {
		for row := range gld {
			for l := range L {
				v := T(-7)
				switch {
				case row == c:
					v = T(1 + r.Float64())
				case row < n && (row > c) == lower:
					v = T(r.Float64() - 0.5)
				}
				g[(c*gld+row)*L+l] = v
			}
		}
	}
	at := func(row, c, l int) *T { return &g[(c*gld+row)*L+l] }
	*at(n-1, n-1, zeroLane) = 0
	*at(0, 0, nanLane) = T(math.NaN())
	if n > 1 {
		*at(n-1, 0, nanLane), *at(0, n-1, nanLane) = T(math.Inf(1)), T(math.Inf(-1))
	}
	return g
}

// The assembly of every path the machine runs gives the bits of the Go
// loops, on every lane, in the triangle it computes, and leaves the rest
// as it was.
func TestAssemblyMatchesGo(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		defer simdpath.Use(path)()
		t.Run(path+"/float64", testAssemblyMatchesGo[float64])
		t.Run(path+"/float32", testAssemblyMatchesGo[float32])
	})
}

func testAssemblyMatchesGo[T batchlas.Float](t *testing.T) {
	L := lanes.Lanes[T]()
	for _, n := range orders {
		for _, gld := range []int{n, n + 3} {
			for _, lower := range []bool{true, false} {
				what := fmt.Sprintf("n=%d gld=%d lower=%v", n, gld, lower)
				g := factors[T](uint64(n*100+gld), n, gld, lower)
				asm, twin := append([]T(nil), g...), append([]T(nil), g...)
				tmp := make([]T, 2*L)
				if lower {
					Lower(asm, n, gld, L, tmp)
					lowerGo(twin, n, gld, L, tmp)
				} else {
					Upper(asm, n, gld, L, tmp)
					upperGo(twin, n, gld, L, tmp)
				}
				testmat.SameBits(t, what, asm, twin)
				for i, v := range g {
					if v == -7 && asm[i] != -7 {
						t.Fatalf("%s: entry %d outside the triangle changed to %v", what, i, asm[i])
					}
				}
			}
		}
	}
}

// On every path, the triangle is that of A's inverse, A = L L^T (or U^T
// U, as potrf factors an upper triangle): A times the mirrored result is the identity within rounding, on
// the lanes that hold a factor.
func TestInverseOfTheProduct(t *testing.T) {
	for _, path := range simdpath.Paths() {
		t.Run(path, func(t *testing.T) {
			defer simdpath.Use(path)()
			testInverseOfTheProduct[float64](t, 1e-13)
			testInverseOfTheProduct[float32](t, 1e-5)
		})
	}
}

func testInverseOfTheProduct[T batchlas.Float](t *testing.T, tol float64) {
	L := lanes.Lanes[T]()
	for _, n := range orders {
		for _, lower := range []bool{true, false} {
			gld := n + 1
			g := factors[T](uint64(n), n, gld, lower)
			x := append([]T(nil), g...)
			if lower {
				Lower(x, n, gld, L, make([]T, 2*L))
			} else {
				Upper(x, n, gld, L, make([]T, 2*L))
			}
			for l := range L {
				if l == zeroLane || l == nanLane {
					continue
				}
				f := func(r, c int) float64 { // the factor's entry, 0 off its triangle
					if (r >= c) != lower && r != c {
						return 0
					}
					return float64(g[(c*gld+r)*L+l])
				}
				inv := func(r, c int) float64 { // the result, mirrored
					if (r >= c) != lower {
						r, c = c, r
					}
					return float64(x[(c*gld+r)*L+l])
				}
				a := func(r, c int) float64 { // L L^T or U^T U
					s := 0.0
					for k := range n {
						if lower {
							s += f(r, k) * f(c, k)
						} else {
							s += f(k, r) * f(k, c)
						}
					}
					return s
				}
				worst := 0.0
				for r := range n {
					for c := range n {
						s := 0.0
						for k := range n {
							s += a(r, k) * inv(k, c)
						}
						if r == c {
							s--
						}
						worst = max(worst, math.Abs(s))
					}
				}
				if !(worst <= tol*float64(n)) {
					t.Fatalf("n=%d lower=%v lane %d: max |A X - I| = %g", n, lower, l, worst)
				}
			}
		}
	}
}
