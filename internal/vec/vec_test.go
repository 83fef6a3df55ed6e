package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "vec_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "vec_avx2_amd64.s")
}

// rowCounts straddle the assembly's chunks: the masked tail alone, one
// whole vector of either type, four (32 float64 or 64 float32 rows), and
// the orders syev sends.
var rowCounts = []int{1, 2, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 48, 63, 64, 65, 70, 100, 128, 129, 200}

// rotCounts straddle a sequence of one rotation.
var rotCounts = []int{2, 3, 5, 9}

// unitRoundoff is the spacing of T at 1: the unit of the tests' error
// bounds.
func unitRoundoff[T batchlas.Float]() float64 {
	if Width[T]() == 16 {
		return math.Pow(2, -23)
	}
	return math.Pow(2, -52)
}

// poison marks the entries outside the rows a kernel may touch.
const poison = -7.25

// withPath runs f with simd's switches set to run path.
func withPath(path string, f func()) {
	defer simdpath.Use(path)()
	f()
}

// columns returns k columns of rows random entries, ld apart, the gap
// below each column poisoned.
func columns[T batchlas.Float](r *rand.Rand, rows, ld, k int) []T {
	z := make([]T, k*ld)
	for i := range z {
		if i%ld < rows {
			z[i] = T(r.NormFloat64())
		} else {
			z[i] = poison
		}
	}
	return z
}

// rotations returns k-1 random rotations (c^2 + s^2 = 1 to rounding),
// the first an identity when k > 2 (QL/QR sends those).
func rotations[T batchlas.Float](r *rand.Rand, k int) (c, s []T) {
	c, s = make([]T, k-1), make([]T, k-1)
	for j := range c {
		th := r.Float64() * 2 * math.Pi
		c[j], s[j] = T(math.Cos(th)), T(math.Sin(th))
	}
	if k > 2 {
		c[0], s[0] = 1, 0
	}
	return c, s
}

// rotRef applies the rotations by the textbook formula in float64.
func rotRef(z []float64, ld, rows, k int, c, s []float64, forward bool) {
	apply := func(j int) {
		for i := range rows {
			x, y := z[j*ld+i], z[(j+1)*ld+i]
			z[j*ld+i] = c[j]*x + s[j]*y
			z[(j+1)*ld+i] = c[j]*y - s[j]*x
		}
	}
	if forward {
		for j := 0; j < k-1; j++ {
			apply(j)
		}
	} else {
		for j := k - 2; j >= 0; j-- {
			apply(j)
		}
	}
}

// TestRotations checks both directions on every path against the
// textbook formula in float64 (to a few units of T's roundoff per
// rotation), the poisoned gaps untouched, and, with AVX-512, the assembly
// against the Go twin bit for bit.
func TestRotations(t *testing.T) {
	testRotations[float64](t)
	testRotations[float32](t)
}

func testRotations[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	eps := unitRoundoff[T]()
	for _, forward := range []bool{true, false} {
		for _, rows := range rowCounts {
			for _, k := range rotCounts {
				ld := rows + 3
				z0 := columns[T](r, rows, ld, k)
				c, s := rotations[T](r, k)
				want := make([]float64, len(z0))
				for i, x := range z0 {
					want[i] = float64(x)
				}
				c64, s64 := make([]float64, k-1), make([]float64, k-1)
				for j := range c {
					c64[j], s64[j] = float64(c[j]), float64(s[j])
				}
				rotRef(want, ld, rows, k, c64, s64, forward)
				name := fmt.Sprintf("%T forward=%v rows=%d k=%d", T(0), forward, rows, k)
				var got [][]T
				for _, path := range simdpath.Paths() {
					z := slices.Clone(z0)
					withPath(path, func() {
						if forward {
							RotForward(z, ld, rows, k, c, s)
						} else {
							RotBackward(z, ld, rows, k, c, s)
						}
					})
					for i := range z {
						if i%ld >= rows {
							if z[i] != poison {
								t.Fatalf("%s path=%s: gap entry %d written", name, path, i)
							}
						} else if d := math.Abs(float64(z[i]) - want[i]); d > 4*float64(k)*eps*4 {
							t.Fatalf("%s path=%s: entry %d is %v, want %v", name, path, i, z[i], want[i])
						}
					}
					got = append(got, z)
				}
				for _, g := range got[:len(got)-1] {
					testmat.SameBits(t, name, g, got[len(got)-1])
				}
			}
		}
	}
}

// TestReflect checks Reflect on every path against the product with I -
// tau*v*v^T in float64, the gaps untouched, and the assembly against the
// twin bit for bit, on column counts that straddle its groups of four.
func TestReflect(t *testing.T) {
	testReflect[float64](t)
	testReflect[float32](t)
}

func testReflect[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	eps := unitRoundoff[T]()
	for _, rows := range rowCounts {
		for _, ncols := range []int{1, 3, 4, 5, 9} {
			ld := rows + 2
			a0 := columns[T](r, rows, ld, ncols)
			v := make([]T, rows)
			vv := 0.0
			for i := range v {
				v[i] = T(r.NormFloat64())
				vv += float64(v[i]) * float64(v[i])
			}
			tau := T(2 / vv) // an orthogonal reflector
			name := fmt.Sprintf("%T rows=%d ncols=%d", T(0), rows, ncols)
			var got [][]T
			for _, path := range simdpath.Paths() {
				a := slices.Clone(a0)
				withPath(path, func() { Reflect(v, a, ld, ncols, tau) })
				for c := range ncols {
					w, scale := 0.0, 0.0
					for i := range rows {
						w += float64(v[i]) * float64(a0[c*ld+i])
						scale += math.Abs(float64(v[i]) * float64(a0[c*ld+i]))
					}
					w *= float64(tau)
					for i := range ld {
						x := a[c*ld+i]
						if i >= rows {
							if x != poison {
								t.Fatalf("%s path=%s: gap entry (%d, %d) written", name, path, i, c)
							}
							continue
						}
						want := float64(a0[c*ld+i]) - w*float64(v[i])
						tol := 4 * float64(rows+2) * eps * (math.Abs(float64(a0[c*ld+i])) + float64(tau)*scale*math.Abs(float64(v[i])))
						if math.Abs(float64(x)-want) > tol {
							t.Fatalf("%s path=%s: entry (%d, %d) is %v, want %v", name, path, i, c, x, want)
						}
					}
				}
				got = append(got, a)
			}
			for _, g := range got[:len(got)-1] {
				testmat.SameBits(t, name, g, got[len(got)-1])
			}
		}
	}
}
