package trial

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// naiveMulAbs is MulAbs by definition, entry by entry: the sum over k in
// ascending order from 0, as MulAbs promises.
func naiveMulAbs(a, b Dense) (prod, abs Dense) {
	prod, abs = NewDense(a.R, b.C), NewDense(a.R, b.C)
	for i := range a.R {
		for j := range b.C {
			var s, t float64
			for l := range a.C {
				s += a.At(i, l) * b.At(l, j)
				t += math.Abs(a.At(i, l)) * math.Abs(b.At(l, j))
			}
			prod.V[i+j*a.R], abs.V[i+j*a.R] = s, t
		}
	}
	return prod, abs
}

// TestMulAbsIsTheDefinition: MulAbs (and Mul and AbsMul, its halves)
// gives the bits of the entry-by-entry
// sums on shapes straddling its 2 x 2 blocks (odd and even rows and
// columns, an empty inner dimension), on one core and split over several
// (the large shapes), and lets NaN and infinities through: an Inf times a
// zero is NaN in the product, as in the definition.
func TestMulAbsIsTheDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dense := func(rows, cols int) Dense {
		d := NewDense(rows, cols)
		for i := range d.V {
			d.V[i] = r.NormFloat64()
		}
		return d
	}
	type shape struct{ m, k, n int }
	var shapes []shape
	for _, m := range []int{0, 1, 2, 3, 4, 5} {
		for _, k := range []int{0, 1, 2, 7} {
			for _, n := range []int{0, 1, 2, 3, 6} {
				shapes = append(shapes, shape{m, k, n})
			}
		}
	}
	// Over mulAbsParallelWork: split by columns, odd and even counts.
	shapes = append(shapes, shape{131, 67, 129}, shape{128, 64, 130}, shape{3, 1 << 18, 5})
	for _, s := range shapes {
		for _, special := range []bool{false, true} {
			a, b := dense(s.m, s.k), dense(s.k, s.n)
			if special && s.m*s.k > 1 && s.k*s.n > 1 {
				a.V[1] = math.NaN()
				a.V[len(a.V)-1] = math.Inf(1)
				b.V[len(b.V)-1] = 0 // Inf * 0: NaN in the last row's sums
				b.V[0] = math.Inf(-1)
			}
			where := fmt.Sprintf("m=%d k=%d n=%d special=%v", s.m, s.k, s.n, special)
			prod, abs := MulAbs(a, b)
			only, onlyAbs := Mul(a, b), AbsMul(a, b)
			wantProd, wantAbs := naiveMulAbs(a, b)
			for _, d := range []Dense{prod, abs, only, onlyAbs} {
				require.Equal(t, [2]int{s.m, s.n}, [2]int{d.R, d.C}, where)
			}
			for i := range wantProd.V {
				for _, p := range [][2]float64{{prod.V[i], wantProd.V[i]}, {abs.V[i], wantAbs.V[i]}, {only.V[i], wantProd.V[i]}, {onlyAbs.V[i], wantAbs.V[i]}} {
					if math.Float64bits(p[0]) != math.Float64bits(p[1]) && !(math.IsNaN(p[0]) && math.IsNaN(p[1])) {
						t.Fatalf("%s: element %d is %v, the definition gives %v", where, i, p[0], p[1])
					}
				}
			}
		}
	}
}

// BenchmarkMulAbs times the reference product at the orders a tuning run
// checks: ns/op per product of two n x n matrices.
func BenchmarkMulAbs(b *testing.B) {
	for _, n := range []int{32, 128, 256, 512} {
		r := rand.New(rand.NewPCG(5, 6))
		x, y := NewDense(n, n), NewDense(n, n)
		for i := range x.V {
			x.V[i], y.V[i] = r.NormFloat64(), r.NormFloat64()
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				MulAbs(x, y)
			}
			b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
