package subst

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "subst_amd64.s") }

// orders straddle a vector of rows of either type (8 float64, 16
// float32), a short last block, and SolveRows' chunks do not depend on
// them; counts straddle SolveCols' column chunks (8, 4, 2, 1) and
// SolveRows' row chunks (one vector, four, the masked tail).
var (
	orders = []int{1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 64, 65, 100}
	counts = []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 16, 17, 31, 32, 33, 63, 64, 65, 70}
)

const poison = -7.25

// paths are the code paths this machine runs: the assembly (when it has
// AVX-512) and the Go twin.
func paths() []bool {
	if simd.AVX512 {
		return []bool{true, false}
	}
	return []bool{false}
}

func withPath(avx bool, f func()) {
	defer func(old bool) { simd.AVX512 = old }(simd.AVX512)
	simd.AVX512 = avx
	f()
}

// system is one E*Y = alpha*C: E of order t read from a through (ers,
// ecs), lower (solved forward) unless back, its diagonal in [1, 2) and
// off-diagonal entries of size 1/t, so every solve is well conditioned;
// the other triangle, and the diagonal when unit, are poisoned.
type system struct {
	t, ers, ecs int
	back, unit  bool
	a           []float64
}

func newSystem(r *rand.Rand, t int, back, unit, transposed bool) system {
	lda := t + 3
	s := system{t: t, ers: 1, ecs: lda, back: back, unit: unit, a: make([]float64, lda*t)}
	if transposed {
		s.ers, s.ecs = lda, 1
	}
	for i := range s.a {
		s.a[i] = poison
	}
	for i := range t {
		for k := range t {
			v := poison
			switch {
			case i == k && !unit:
				v = 1 + r.Float64()
			case i != k && (k < i) != back:
				v = r.NormFloat64() / float64(t)
			}
			s.a[i*s.ers+k*s.ecs] = v
		}
	}
	return s
}

func (s system) e(i, k int) float64 {
	if i == k && s.unit {
		return 1
	}
	return s.a[i*s.ers+k*s.ecs]
}

// solveRef solves E*y = alpha*c in float64 by the textbook substitution.
func (s system) solveRef(c []float64, alpha float64) {
	for st := range s.t {
		i := st
		if s.back {
			i = s.t - 1 - st
		}
		v := alpha * c[i]
		for k := range s.t {
			if k != i && (k < i) != s.back {
				v -= s.e(i, k) * c[k]
			}
		}
		c[i] = v / s.e(i, i)
	}
}

func convert[T batchlas.Float](x []float64) []T {
	y := make([]T, len(x))
	for i, v := range x {
		y[i] = T(v)
	}
	return y
}

// rhs returns n vectors of length t, ld apart, with poisoned gaps.
func rhs(r *rand.Rand, t, n, ld int) []float64 {
	c := make([]float64, n*ld)
	for i := range c {
		c[i] = poison
		if i%ld < t {
			c[i] = r.NormFloat64()
		}
	}
	return c
}

// check compares got with want entry by entry (n vectors of length t, ld
// apart, read as got[vec*ld + i] or transposed), the gaps untouched.
func check[T batchlas.Float](tb testing.TB, what string, got []T, want []float64, tol float64) {
	tb.Helper()
	for i, w := range want {
		g := float64(got[i])
		if w == poison {
			if g != poison {
				tb.Fatalf("%s: entry %d outside the solve written: %v", what, i, g)
			}
			continue
		}
		if math.Abs(g-w) > tol*(1+math.Abs(w)) || math.IsNaN(g) {
			tb.Fatalf("%s: entry %d = %v, want %v", what, i, g, w)
		}
	}
}

// variants are the four ways E is stored and solved.
var variants = []struct{ back, transposed bool }{{false, false}, {false, true}, {true, false}, {true, true}}

// prepareCols is SolveCols' inputs for the system s stored in a, the way
// trsm prepares them: E read in place when it is column-major, else
// copied by PackE into a buffer full of NaN (PackE must write every entry
// SolveCols reads).
func prepareCols[T batchlas.Float](a []T, s system) (e []T, lde int, dg []T) {
	dg = make([]T, DiagSize[T](s.t))
	e, lde = a, s.ecs
	if s.ers != 1 {
		// A leading dimension past t, as trsm's conflict-free copies have.
		e, lde = make([]T, (s.t+3)*s.t), s.t+3
		for i := range e {
			e[i] = T(math.NaN())
		}
		PackE(e, lde, a, s.t, s.ers, s.ecs, s.back, s.unit)
	}
	PackDiag(dg, e, lde, s.t, s.back, s.unit)
	return e, lde, dg
}

// ulp is the spacing of T's numbers at 1: twice the unit round-off.
func ulp[T batchlas.Float]() float64 { return 2 * testmat.Eps[T]() }

func TestSolveCols(t *testing.T) {
	testSolveCols[float64](t)
	testSolveCols[float32](t)
}

func testSolveCols[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range orders {
		for _, v := range variants {
			for _, unit := range []bool{false, true} {
				s := newSystem(r, n, v.back, unit, v.transposed)
				a := convert[T](s.a)
				e, lde, dg := prepareCols(a, s)
				for _, nc := range counts[:12] {
					ld := n + 2
					c := rhs(r, n, nc, ld)
					alpha := 1 + r.Float64()
					want := append([]float64(nil), c...)
					for j := range nc {
						s.solveRef(want[j*ld:j*ld+n], alpha)
					}
					var outs [][]T
					for _, avx := range paths() {
						got := convert[T](c)
						withPath(avx, func() { SolveCols(e, lde, dg, n, s.back, got, ld, nc, T(alpha)) })
						what := fmt.Sprintf("%T t=%d ncols=%d back=%v transposed=%v unit=%v asm=%v", T(0), n, nc, v.back, v.transposed, unit, avx)
						check(t, what, got, want, 8*float64(n)*ulp[T]())
						outs = append(outs, got)
					}
					if len(outs) == 2 {
						testmat.SameBits(t, fmt.Sprintf("%T t=%d ncols=%d back=%v unit=%v", T(0), n, nc, v.back, unit), outs[0], outs[1])
					}
				}
			}
		}
	}
}

func TestSolveRows(t *testing.T) {
	testSolveRows[float64](t)
	testSolveRows[float32](t)
}

func testSolveRows[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range orders[:14] {
		for _, v := range variants {
			for _, unit := range []bool{false, true} {
				s := newSystem(r, n, v.back, unit, v.transposed)
				a := convert[T](s.a)
				pk := make([]T, StepsSize(n))
				PackSteps(pk, a, n, s.ers, s.ecs, s.back, unit)
				for _, rows := range counts {
					// C is rows x n: the system's vector j is C's row j.
					ld := rows + 3
					c := rhs(r, rows, n, ld)
					alpha := 1 + r.Float64()
					want := append([]float64(nil), c...)
					vec := make([]float64, n)
					for i := range rows {
						for j := range n {
							vec[j] = want[j*ld+i]
						}
						s.solveRef(vec, alpha)
						for j := range n {
							want[j*ld+i] = vec[j]
						}
					}
					var outs [][]T
					for _, avx := range paths() {
						got := convert[T](c)
						withPath(avx, func() { SolveRows(pk, n, s.back, got, ld, rows, T(alpha)) })
						what := fmt.Sprintf("%T t=%d rows=%d back=%v transposed=%v unit=%v asm=%v", T(0), n, rows, v.back, v.transposed, unit, avx)
						check(t, what, got, want, 8*float64(n)*ulp[T]())
						outs = append(outs, got)
					}
					if len(outs) == 2 {
						testmat.SameBits(t, fmt.Sprintf("%T t=%d rows=%d back=%v unit=%v", T(0), n, rows, v.back, unit), outs[0], outs[1])
					}
				}
			}
		}
	}
}

// TestZeroPivotStaysInItsLanes puts a zero on the diagonal inside a
// block: the rows solved before it stay finite and right (a step only
// touches the lanes solved after it), the rest are Inf or NaN as
// substitution by division gives.
func TestZeroPivotStaysInItsLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 13
	for _, back := range []bool{false, true} {
		s := newSystem(r, n, back, false, false)
		z := 5 // solved at step 5 forward, 7 backward
		s.a[z*(s.ers+s.ecs)] = 0
		e, lde, dg := prepareCols(s.a, s)
		c := rhs(r, n, 3, n)
		want := append([]float64(nil), c...)
		for j := range 3 {
			s.solveRef(want[j*n:j*n+n], 1)
		}
		for _, avx := range paths() {
			got := append([]float64(nil), c...)
			withPath(avx, func() { SolveCols(e, lde, dg, n, back, got, n, 3, 1) })
			for i, w := range want {
				g := got[i]
				finite := !math.IsInf(w, 0) && !math.IsNaN(w)
				if finite != (!math.IsInf(g, 0) && !math.IsNaN(g)) || finite && math.Abs(g-w) > 1e-12*(1+math.Abs(w)) {
					t.Fatalf("back=%v asm=%v: entry %d = %v, want %v", back, avx, i, g, w)
				}
			}
		}
	}
}

func TestScale(t *testing.T) {
	testScale[float64](t)
	testScale[float32](t)
}

// testScale checks Scale against alpha*C/a on row counts that straddle
// the vector and its masked tail, several columns and matrices, a
// broadcast a (sa = 0), the gaps between columns and matrices untouched.
func testScale[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, rows := range counts {
		for _, cols := range []int{1, 2, 3} {
			for _, sa := range []int{0, 2} {
				for _, unit := range []bool{false, true} {
					const count = 3
					ld := rows + 1
					sc := cols*ld + 2
					c := make([]float64, count*sc)
					for i := range c {
						c[i] = poison
						if i%sc < cols*ld && i%sc%ld < rows {
							c[i] = r.NormFloat64()
						}
					}
					a := make([]float64, count*2)
					for i := range a {
						a[i] = 1 + r.Float64()
					}
					alpha := 1 + r.Float64()
					want := append([]float64(nil), c...)
					for i := range count {
						d := a[i*sa]
						if unit {
							d = 1
						}
						for j := range cols {
							for k := range rows {
								want[i*sc+j*ld+k] = alpha * want[i*sc+j*ld+k] / d
							}
						}
					}
					var outs [][]T
					for _, avx := range paths() {
						got := convert[T](c)
						withPath(avx, func() { Scale(got, ld, rows, cols, count, sc, convert[T](a), sa, unit, T(alpha)) })
						check(t, fmt.Sprintf("%T rows=%d cols=%d sa=%d unit=%v asm=%v", T(0), rows, cols, sa, unit, avx), got, want, 4*ulp[T]())
						outs = append(outs, got)
					}
					if len(outs) == 2 {
						testmat.SameBits(t, fmt.Sprintf("%T rows=%d cols=%d", T(0), rows, cols), outs[0], outs[1])
					}
				}
			}
		}
	}
}
