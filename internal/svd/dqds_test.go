package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"
)

// bidiagonals returns test bidiagonals of order n: random, graded over
// 30 and 300 decades both ways, with zeros on the diagonal (exact zero
// singular values) and on the superdiagonal (splits), with entries at
// the ends of the range, repeated values (the identity, a constant
// bidiagonal) and a zero matrix.
func bidiagonals(r *rand.Rand, n int) map[string][2][]float64 {
	out := map[string][2][]float64{}
	mk := func(name string, fd, fe func(i int) float64) {
		d, e := make([]float64, n), make([]float64, max(n-1, 0))
		for i := range d {
			d[i] = fd(i)
		}
		for i := range e {
			e[i] = fe(i)
		}
		out[name] = [2][]float64{d, e}
	}
	sgn := func() float64 { return float64(1 - 2*r.IntN(2)) }
	mk("random", func(int) float64 { return r.NormFloat64() }, func(int) float64 { return r.NormFloat64() })
	for _, dec := range []float64{30, 300} {
		mk(fmt.Sprintf("graded down 1e-%v", dec), func(i int) float64 {
			return sgn() * (0.5 + r.Float64()) * math.Pow(10, -dec*float64(i)/float64(n))
		}, func(i int) float64 { return (0.5 + r.Float64()) * math.Pow(10, -dec*(float64(i)+0.5)/float64(n)) })
		mk(fmt.Sprintf("graded up 1e-%v", dec), func(i int) float64 {
			return sgn() * (0.5 + r.Float64()) * math.Pow(10, -dec*float64(n-1-i)/float64(n))
		}, func(i int) float64 { return (0.5 + r.Float64()) * math.Pow(10, -dec*(float64(n-1-i)-0.5)/float64(n)) })
	}
	mk("zero diagonal entries", func(i int) float64 {
		if i%3 == 1 || i == n-1 {
			return 0
		}
		return r.NormFloat64()
	}, func(int) float64 { return r.NormFloat64() })
	mk("zero superdiagonal entries", func(int) float64 { return r.NormFloat64() }, func(i int) float64 {
		if i%4 == 2 {
			return 0
		}
		return r.NormFloat64()
	})
	mk("zero diagonal", func(int) float64 { return 0 }, func(int) float64 { return r.NormFloat64() })
	mk("ends of the range", func(i int) float64 { return []float64{1e300, 1e-300, 1, 0x1p-1070}[i%4] }, func(i int) float64 { return []float64{1e-300, 1e300, 0x1p-1070, 1}[i%4] })
	mk("identity", func(int) float64 { return 1 }, func(int) float64 { return 0 })
	mk("constant", func(int) float64 { return 1 }, func(int) float64 { return 1 })
	mk("tiny superdiagonal", func(int) float64 { return 1 + r.Float64() }, func(int) float64 { return 1e-200 * r.Float64() })
	mk("zero", func(int) float64 { return 0 }, func(int) float64 { return 0 })
	return out
}

// TestDqdsAgainstGonum: dqds's values match gonum's Dbdsqr (values only,
// its dqds) to n eps of the largest value (the contract of Bidiag), and to
// a few ulps of themselves on graded bidiagonals and random ones, in
// float64; float32 to the same bounds in its precision against the
// float64 values of the rounded input. Orders straddle the 2x2 closed
// form and the block logic.
func TestDqdsAgainstGonum(t *testing.T) {
	impl := gonum.Implementation{}
	r := rand.New(rand.NewPCG(17, 0))
	for _, n := range []int{1, 2, 3, 4, 5, 8, 17, 32, 33, 64, 128} {
		for name, b := range bidiagonals(r, n) {
			d, e := b[0], b[1]
			want := slices.Clone(d)
			if n > 1 {
				if !impl.Dbdsqr('U', n, 0, 0, 0, want, slices.Clone(e), nil, 1, nil, 1, nil, 1, make([]float64, 4*n)) {
					t.Fatalf("%s n=%d: gonum Dbdsqr failed", name, n)
				}
			} else {
				want[0] = math.Abs(want[0])
			}
			slices.Sort(want)
			slices.Reverse(want)
			// Relative accuracy where every value's square is a normal number
			// after dqds scales B's largest entry to 1 (squares below the
			// underflow threshold are below eps^2 of the largest: the
			// absolute accuracy the bidiagonal path promises).
			relative := name == "random" || strings.HasSuffix(name, "1e-30") || name == "identity" || name == "constant"

			got := slices.Clone(d)
			if info := dqds(n, got, slices.Clone(e), make([]float64, dqdsWork(n))); info != 0 {
				t.Fatalf("%s n=%d: info %d", name, n, info)
			}
			checkValues(t, fmt.Sprintf("float64 %s n=%d", name, n), got, want, 0x1p-52, relative)

			if strings.HasPrefix(name, "ends") || name == "graded down 1e-300" || name == "graded up 1e-300" || name == "tiny superdiagonal" {
				continue // beyond float32's range
			}
			d32, e32 := make([]float32, n), make([]float32, len(e))
			for i := range d {
				d32[i] = float32(d[i])
			}
			for i := range e {
				e32[i] = float32(e[i])
			}
			want32 := make([]float64, n)
			for i := range d32 {
				want32[i] = float64(d32[i])
			}
			e64 := make([]float64, len(e))
			for i := range e32 {
				e64[i] = float64(e32[i])
			}
			if n > 1 && !impl.Dbdsqr('U', n, 0, 0, 0, want32, e64, nil, 1, nil, 1, nil, 1, make([]float64, 4*n)) {
				t.Fatal("gonum Dbdsqr failed")
			}
			for i := range want32 {
				want32[i] = math.Abs(want32[i])
			}
			slices.Sort(want32)
			slices.Reverse(want32)
			if info := dqds(n, d32, e32, make([]float32, dqdsWork(n))); info != 0 {
				t.Fatalf("float32 %s n=%d: info %d", name, n, info)
			}
			got32 := make([]float64, n)
			for i := range d32 {
				got32[i] = float64(d32[i])
			}
			checkValues(t, fmt.Sprintf("float32 %s n=%d", name, n), got32, want32, 0x1p-23, relative && !strings.HasPrefix(name, "graded"))
		}
	}
}

// checkValues sorts got descending and compares it with want: within
// 8 n eps of the largest value, and when relative within 8 n eps of each.
func checkValues(t *testing.T, what string, got, want []float64, eps float64, relative bool) {
	t.Helper()
	slices.Sort(got)
	slices.Reverse(got)
	n := float64(len(got))
	for i := range got {
		if !(got[i] >= 0) {
			t.Fatalf("%s: s[%d] = %v", what, i, got[i])
		}
		scale := want[0]
		if relative {
			scale = want[i]
		}
		if diff := math.Abs(got[i] - want[i]); !(diff <= 8*n*eps*scale) {
			t.Fatalf("%s: s[%d] = %v, gonum %v (%.3g eps of %v)", what, i, got[i], want[i], diff/(eps*scale), scale)
		}
	}
}

// dqdsMany gives each of its runs dqds' bits and info, on sets of one to
// seven of the test bidiagonals of several orders (so the transforms made
// together differ in length, in count, and in which is rejected first:
// four, two and one at a time all run).
func TestDqdsManyIsDqdsOnEach(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type bidiag struct {
		name string
		d, e []float64
	}
	var all []bidiag
	for _, n := range []int{1, 2, 7, 17, 32, 40} {
		for name, x := range bidiagonals(r, n) {
			all = append(all, bidiag{fmt.Sprintf("n=%d %s", n, name), x[0], x[1]})
		}
	}
	slices.SortFunc(all, func(a, b bidiag) int { return strings.Compare(a.name, b.name) })
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	for size := 1; size <= 7; size++ {
		for first := 0; first+size <= len(all); first += size {
			set := all[first : first+size]
			runs := make([]dqdsRun[float64], size)
			ptrs := make([]*dqdsRun[float64], size)
			ds := make([][]float64, size)
			for j, b := range set {
				n := len(b.d)
				ds[j] = append([]float64(nil), b.d...)
				runs[j].start(n, ds[j], append([]float64(nil), b.e...), make([]float64, dqdsWork(n)))
				ptrs[j] = &runs[j]
			}
			dqdsMany(ptrs)
			for j, b := range set {
				n := len(b.d)
				want := append([]float64(nil), b.d...)
				wantInfo := dqds(n, want, append([]float64(nil), b.e...), make([]float64, dqdsWork(n)))
				if info := runs[j].finish(); info != wantInfo {
					t.Fatalf("set of %d, %s: info %d, dqds alone %d", size, b.name, info, wantInfo)
				}
				for i := range want {
					if math.Float64bits(ds[j][i]) != math.Float64bits(want[i]) {
						t.Fatalf("set of %d, %s: d[%d] = %v, dqds alone %v", size, b.name, i, ds[j][i], want[i])
					}
				}
			}
		}
	}
}
