package lanessvd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// edgeOrders straddle Finish's largest order and the loops' ends.
var edgeOrders = []int{1, 2, 3, 4, 7, 8, 9, 16, 17, 31, 32}

// edgeKind is what a lane of an edge group holds.
type edgeKind int

const (
	kindRandom   edgeKind = iota // entries of either sign around 1
	kindZero                     // all zeros, one of them -0
	kindNaN                      // random with one NaN
	kindInf                      // random with one -Inf
	kindHuge                     // around 2^1000: scaled down
	kindTiny                     // subnormal entries: 2^e past the normal range
	kindGraded                   // columns from 2^-600 to 2^600: some products underflow
	kindNoMatrix                 // outside the mask: zeros
	kindSigns                    // +-1: ties of magnitude, where the sign convention takes the first
)

// edgeGroup is a group of n x n matrices, lane l holding kinds[l % len].
func edgeGroup[T batchlas.Float](r *rand.Rand, n int, shift int) (g []T, mask uint64) {
	L := Lanes[T]()
	is32 := L == 16
	g = make([]T, n*n*L)
	kinds := []edgeKind{kindRandom, kindZero, kindNaN, kindHuge, kindTiny, kindGraded, kindNoMatrix, kindInf, kindSigns}
	for l := range L {
		k := kinds[(l+shift)%len(kinds)]
		if k != kindNoMatrix {
			mask |= 1 << l
		}
		for e := range n * n {
			x := 2*r.Float64() - 1
			switch k {
			case kindZero, kindNoMatrix:
				x = 0
				if e == n*n-1 && k == kindZero {
					x = math.Copysign(0, -1)
				}
			case kindHuge:
				if is32 {
					x = math.Ldexp(x, 120)
				} else {
					x = math.Ldexp(x, 1000)
				}
			case kindTiny:
				if is32 {
					x = math.Ldexp(x, -140)
				} else {
					x = math.Ldexp(x, -1060)
				}
			case kindSigns:
				x = math.Copysign(1, x)
			case kindGraded:
				span := 600.0
				if is32 {
					span = 60
				}
				x = math.Ldexp(x, int(-span+2*span*float64(e/n)/float64(max(n-1, 1))))
			}
			g[e*L+l] = T(x)
		}
		switch k {
		case kindNaN:
			g[(n*n/2)*L+l] = T(math.NaN())
		case kindInf:
			g[(n*n-1)*L+l] = T(math.Inf(-1))
		}
	}
	return g, mask
}

// Scale's assembly and Go twin give the same bits, exponents and lanes,
// at gesvd's h for either type and at the ends of the range the AVX2
// path takes (outside it, it runs the twin).
func TestScalePathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testScalePathsAgree[float64](t, path)
		testScalePathsAgree[float32](t, path)
	})
}

func testScalePathsAgree[T batchlas.Float](t *testing.T, path string) {
	defer simdpath.Use(path)()
	r := rand.New(rand.NewPCG(3, 4))
	lo, hi := scaleHRange[T]()
	for _, n := range edgeOrders {
		for shift := range 9 {
			// scaleTop's h for a few orders' sizes, either type's.
			for _, h := range []int{446 - n%5, 60 - n%5, lo, hi} {
				g, mask := edgeGroup[T](r, n, shift)
				g2 := slices.Clone(g)
				var e1, e2 [16]int32
				a1 := scale(g, n*n, mask, h, &e1)
				a2 := scaleGo(g2, n*n, mask, h, &e2)
				name := fmt.Sprintf("%T %s n=%d shift=%d h=%d", T(0), path, n, shift, h)
				if a1 != a2 {
					t.Errorf("%s: active %b, twin %b", name, a1, a2)
				}
				if e1 != e2 {
					t.Errorf("%s: exps %v, twin %v", name, e1, e2)
				}
				if i := firstDiff(g, g2, false); i >= 0 {
					t.Errorf("%s: g[%d] (lane %d) %v, twin %v", name, i, i%Lanes[T](), g[i], g2[i])
				}
			}
		}
	}
}

// Scale's Go twin does what its doc says, lane by lane against a plain
// reference: NaN and Inf lanes cleared and inactive, the others times
// 2^(h-ex) with amax in [2^(ex-1), 2^ex).
func TestScaleMeaning(t *testing.T) {
	testScaleMeaning[float64](t)
	testScaleMeaning[float32](t)
}

func testScaleMeaning[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	L := Lanes[T]()
	for _, n := range []int{1, 3, 8} {
		g, mask := edgeGroup[T](r, n, 0)
		g0 := slices.Clone(g)
		h := 100
		var exps [16]int32
		active := Scale(g, n*n, mask, h, &exps)
		for l := range L {
			amax, finite := 0.0, true
			for i := l; i < len(g0); i += L {
				x := math.Abs(float64(g0[i]))
				finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
				amax = max(amax, x)
			}
			want := mask&(1<<l) != 0 && finite
			if got := active&(1<<l) != 0; got != want {
				t.Errorf("%T n=%d lane %d: active %v, want %v", T(0), n, l, got, want)
				continue
			}
			e := 0
			if want && amax > 0 {
				_, ex := math.Frexp(amax)
				e = h - ex
				if s := math.Ldexp(amax, e); s < math.Ldexp(1, h-1) || s >= math.Ldexp(1, h) {
					t.Errorf("%T n=%d lane %d: amax %g scaled to %g, outside [2^%d, 2^%d)", T(0), n, l, amax, s, h-1, h)
				}
			}
			if int(exps[l]) != e {
				t.Errorf("%T n=%d lane %d: exps %d, want %d", T(0), n, l, exps[l], e)
			}
			for i := l; i < len(g); i += L {
				want := T(0)
				if active&(1<<l) != 0 {
					want = T(math.Ldexp(float64(g0[i]), e))
				}
				if bits(g[i]) != bits(want) && !(want == 0 && g[i] == 0 && mask&(1<<l) == 0) {
					t.Errorf("%T n=%d lane %d entry %d: %v, want %v", T(0), n, l, i/L, g[i], want)
					break
				}
			}
		}
	}
}

// Finish's assembly and Go twin give the same bits and lanes, on swept
// groups and on scaled edge groups (whose tiny and huge lanes fail the
// plain sum, and whose zero lanes fail U's test), with and without U and
// V.
func TestFinishPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testFinishPathsAgree[float64](t, path)
		testFinishPathsAgree[float32](t, path)
	})
}

func testFinishPathsAgree[T batchlas.Float](t *testing.T, path string) {
	defer simdpath.Use(path)()
	r := rand.New(rand.NewPCG(7, 8))
	L := Lanes[T]()
	minSum, eps := T(0x1p-900), T(0x1p-52)
	if L == 16 {
		minSum, eps = 0x1p-94, 0x1p-23
	}
	for _, n := range edgeOrders {
		for shift := range 9 {
			for _, job := range []struct{ u, v bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
				g, mask := edgeGroup[T](r, n, shift)
				var v []T
				if job.v {
					v = make([]T, n*n*L)
					for c := range n {
						for l := range L {
							v[(c*n+c)*L+l] = 1
						}
					}
				}
				var exps [16]int32
				for l := range L {
					exps[l] = int32(r.IntN(200) - 100)
				}
				if shift%2 == 1 {
					tol, small, big := params[T](n)
					active := Scale(g, n*n, mask, 40, &exps)
					Sweeps(g, v, n, 60, active, tol, small, big)
				}
				ss := n + shift%3
				s1, s2 := make([]T, L*ss), make([]T, L*ss)
				for i := range s1 {
					s1[i], s2[i] = -7, -7
				}
				g2, v2 := slices.Clone(g), slices.Clone(v)
				d1 := Finish(g, v, n, mask, &exps, minSum, eps, job.u, s1, ss)
				d2 := finishGo(g2, v2, n, mask, &exps, minSum, eps, job.u, s2, ss)
				name := fmt.Sprintf("%T %s n=%d shift=%d u=%v v=%v", T(0), path, n, shift, job.u, job.v)
				if d1 != d2 {
					t.Errorf("%s: done %b, twin %b", name, d1, d2)
				}
				if d1&^mask != 0 {
					t.Errorf("%s: done %b has lanes outside %b", name, d1, mask)
				}
				if i := firstDiff(s1, s2, false); i >= 0 {
					t.Errorf("%s: s[%d] %v, twin %v", name, i, s1[i], s2[i])
				}
				if i := firstDiff(g, g2, true); i >= 0 {
					t.Errorf("%s: g[%d] (lane %d) %v, twin %v", name, i, i%L, g[i], g2[i])
				}
				if i := firstDiff(v, v2, true); i >= 0 {
					t.Errorf("%s: v[%d] (lane %d) %v, twin %v", name, i, i%L, v[i], v2[i])
				}
			}
		}
	}
}

// Finish's Go twin against a plain reference on each lane: the values
// are the column norms (float64 sums, to within a few ulps), sorted
// descending (stably) and times 2^-e; U's columns the columns over their
// norms in that order, V's the columns of v in that order, both signed so
// that U's (V's without U) first entry of largest magnitude is positive;
// the lanes not done are not written; a lane whose column sum is below
// minSum or infinite is not done, nor with U one whose smallest norm is
// not above eps times the largest.
func TestFinishMeaning(t *testing.T) {
	testFinishMeaning[float64](t)
	testFinishMeaning[float32](t)
}

func testFinishMeaning[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	L := Lanes[T]()
	minSum, top, eps := T(0x1p-900), math.MaxFloat64, T(0x1p-52)
	tolerance := 1e-14
	if L == 16 {
		minSum, top, eps, tolerance = 0x1p-94, math.MaxFloat32, 0x1p-23, 1e-5
	}
	for _, n := range []int{1, 2, 5, 32} {
		for _, wantU := range []bool{false, true} {
			g, mask := edgeGroup[T](r, n, 0)
			for l := range L {
				if l%4 == 0 {
					// Two equal columns: the stable order shows in V.
					for rr := range n {
						g[(min(1, n-1)*n+rr)*L+l] = g[rr*L+l]
					}
				}
			}
			v := make([]T, n*n*L)
			for i := range v {
				v[i] = T(r.Float64() - 0.5)
			}
			g0, v0 := slices.Clone(g), slices.Clone(v)
			var exps [16]int32
			for l := range L {
				exps[l] = int32(l - 4)
			}
			ss := n
			s := make([]T, L*ss)
			for i := range s {
				s[i] = -7
			}
			done := Finish(g, v, n, mask, &exps, minSum, eps, wantU, s, ss)
			name := fmt.Sprintf("%T n=%d u=%v", T(0), n, wantU)
			for l := range L {
				col := func(x []T, j int) []float64 {
					c := make([]float64, n)
					for rr := range n {
						c[rr] = float64(x[(j*n+rr)*L+l])
					}
					return c
				}
				norms := make([]float64, n)
				order := make([]int, n)
				plain := true
				for j := range n {
					var acc float64
					for _, x := range col(g0, j) {
						acc += x * x
					}
					plain = plain && acc >= float64(minSum)*0.99 && acc < top && !math.IsNaN(acc)
					norms[j], order[j] = math.Sqrt(acc), j
				}
				sort.SliceStable(order, func(i, j int) bool { return norms[order[i]] > norms[order[j]] })
				want := mask&(1<<l) != 0 && plain && !(wantU && !(norms[order[n-1]] > float64(eps)*norms[order[0]]*1.000001))
				if got := done&(1<<l) != 0; got != want && !(got && plain && mask&(1<<l) != 0 && wantU) {
					t.Errorf("%s lane %d: done %v, want %v (norms %v)", name, l, got, want, norms)
				}
				if done&(1<<l) == 0 {
					for k := range n {
						if s[l*ss+k] != -7 {
							t.Errorf("%s lane %d: not done but s[%d] written", name, l, k)
						}
					}
					if i := laneDiff(g, g0, l); i >= 0 {
						t.Errorf("%s lane %d: not done but g changed at %d", name, l, i)
					}
					if i := laneDiff(v, v0, l); i >= 0 {
						t.Errorf("%s lane %d: not done but v changed at %d", name, l, i)
					}
					continue
				}
				for k, j := range order {
					if w := math.Ldexp(norms[j], -int(exps[l])); math.Abs(float64(s[l*ss+k])-w) > tolerance*w {
						t.Errorf("%s lane %d: value %d is %v, want %v", name, l, k, s[l*ss+k], w)
					}
					u, vc := col(g0, j), col(v0, j)
					if wantU {
						for rr := range u {
							u[rr] /= norms[j]
						}
					}
					signOf := vc
					if wantU {
						signOf = u
					}
					best, first := 0.0, 0.0
					for _, x := range signOf {
						if math.Abs(x) > best {
							best, first = math.Abs(x), x
						}
					}
					if first < 0 {
						for rr := range u {
							u[rr], vc[rr] = -u[rr], -vc[rr]
						}
					}
					gotU, gotV := col(g, k), col(v, k)
					for rr := range n {
						if wantU && math.Abs(gotU[rr]-u[rr]) > tolerance*10 {
							t.Errorf("%s lane %d: U(%d, %d) is %v, want %v", name, l, rr, k, gotU[rr], u[rr])
							break
						}
						if gotV[rr] != vc[rr] {
							t.Errorf("%s lane %d: V(%d, %d) is %v, want %v", name, l, rr, k, gotV[rr], vc[rr])
							break
						}
					}
				}
			}
			if done == 0 {
				t.Errorf("%s: no lane done", name)
			}
		}
	}
}

// Short slices panic with a message rather than reading past them.
func TestEdgesShortSlicesPanic(t *testing.T) {
	var exps [16]int32
	for name, f := range map[string]func(){
		"Scale g":  func() { Scale(make([]float64, 8*9-1), 9, 1, 10, &exps) },
		"Finish g": func() { Finish(make([]float64, 8*9-1), nil, 3, 1, &exps, 0, 0, false, make([]float64, 3), 3) },
		"Finish v": func() {
			Finish(make([]float64, 8*9), make([]float64, 8*9-1), 3, 1, &exps, 0, 0, false, make([]float64, 3), 3)
		},
		"Finish s":  func() { Finish(make([]float64, 8*9), nil, 3, 0b11, &exps, 0, 0, false, make([]float64, 5), 3) },
		"Finish n":  func() { Finish(make([]float64, 8*33*33), nil, 33, 1, &exps, 0, 0, false, make([]float64, 33), 33) },
		"Finish ss": func() { Finish(make([]float64, 8*9), nil, 3, 0b11, &exps, 0, 0, false, make([]float64, 64), 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// edges_amd64.s is exactly what gen.go writes.
func TestEdgesAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "edges_amd64.s") }

func TestEdgesAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "edges_avx2_amd64.s")
}
