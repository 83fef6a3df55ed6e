package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
)

var sizes = []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 33, 65}

// vectorJobs are the job pairs that compute both U and VT; the shape
// sweep takes them in turn so that each shape meets all four.
var vectorJobs = [][2]Job{{All, All}, {Thin, Thin}, {All, Thin}, {Thin, All}}

// oneSideJobs are the job pairs that compute one side's vectors; the
// shape sweep takes them in turn too, moving on every fourth case so that
// each meets every pair of vectorJobs.
var oneSideJobs = [][2]Job{{All, None}, {None, Thin}, {Thin, None}, {None, All}}

// shapes is every pair of sizes plus three single shapes, which -short
// (the test command's portable pass) leaves out: no kernel changes path
// past the sizes, and they are most of the sweep's time.
func shapes() [][2]int {
	var sh [][2]int
	for _, m := range sizes {
		for _, n := range sizes {
			sh = append(sh, [2]int{m, n})
		}
	}
	if testing.Short() {
		return sh
	}
	return append(sh, [2]int{128, 128}, [2]int{257, 8}, [2]int{8, 257})
}

// TestKernelsShapes has each kernel factor every shape and matrix class three times: with
// one pair of vector jobs (the four taken in turn), with one side's
// vectors only (again in turn) and with none; it checks each against gonum
// and the properties of an SVD, and that s is the same bit for bit.
func TestKernelsShapes(t *testing.T) {
	for _, kern := range kernels {
		t.Run(kern+"/float64", func(t *testing.T) { testShapes[float64](t, kern) })
		t.Run(kern+"/float32", func(t *testing.T) { testShapes[float32](t, kern) })
	}
}

func testShapes[T batchlas.Float](t *testing.T, kern string) {
	r := rand.New(rand.NewPCG(1, uint64(len(typeName[T]()))))
	st := newStats()
	big, tiny := scales[T]()
	turn := 0
	for _, sh := range shapes() {
		m, n := sh[0], sh[1]
		for _, cls := range classes {
			g := rounded[T](cls.make(r, m, n, big, tiny))
			ref := refSV(g)
			jb := vectorJobs[turn%len(vectorJobs)]
			turn++
			where := label[T](m, n, cls.name, jb[0], jb[1])
			c := newCallOf[T](kern, g, jb[0], jb[1])
			c.run()
			c.check(t, g, ref, st, where)
			if cls.name == "zero" {
				checkZeroVectors(t, c, where)
			}
			// One side, and no vectors: the same singular values, bit for
			// bit (Bidiag's values alone come from dqds: checked against
			// gonum only).
			for _, jb := range [][2]Job{oneSideJobs[(turn/len(vectorJobs))%len(oneSideJobs)], {None, None}} {
				c0 := newCallOf[T](kern, g, jb[0], jb[1])
				c0.run()
				w0 := label[T](m, n, cls.name, jb[0], jb[1])
				c0.check(t, g, ref, st, w0)
				if !valuesBitForBit(kern, jb) {
					continue
				}
				for i := 0; i < min(m, n); i++ {
					if c0.s[i] != c.s[i] {
						t.Errorf("%s: s[%d] = %v, with jobs %s%s %v", w0, i, c0.s[i], jobName(c.jobu), jobName(c.jobvt), c.s[i])
					}
				}
			}
		}
	}
	st.log(t)
}

// valuesBitForBit reports whether kernel kern's singular values with jobs
// are bit for bit those of its other jobs: Jacobi's always (the same
// arithmetic on G whatever is wanted), Bidiag's only when vectors are
// computed (bdsqr; without vectors dqds computes them).
func valuesBitForBit(kern string, jobs [2]Job) bool {
	return kern != "bidiag" || jobs != [2]Job{None, None}
}

// checkZeroVectors checks that a zero matrix gets U and VT equal to the
// identity (in their m x ucols and vrows x n parts).
func checkZeroVectors[T batchlas.Float](t *testing.T, c *call[T], where string) {
	t.Helper()
	for j := 0; j < c.ucols; j++ {
		for i := 0; i < c.m; i++ {
			if want := b2f(i == j); c.uAt(i, j) != want {
				t.Fatalf("%s: zero matrix: U(%d,%d) = %v, want %v", where, i, j, c.uAt(i, j), want)
			}
		}
	}
	for j := 0; j < c.n; j++ {
		for i := 0; i < c.vrows; i++ {
			if want := b2f(i == j); c.vtAt(i, j) != want {
				t.Fatalf("%s: zero matrix: VT(%d,%d) = %v, want %v", where, i, j, c.vtAt(i, j), want)
			}
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestKernelsJobs runs all nine job pairs on a set of shapes and checks
// that the outputs agree across them: s bit for bit, U whatever jobvt is
// (bit for bit: U does not depend on it), and the leading k vectors of
// Thin and All within rounding.
func TestKernelsJobs(t *testing.T) {
	for _, kern := range kernels {
		t.Run(kern+"/float64", func(t *testing.T) { testJobs[float64](t, kern) })
		t.Run(kern+"/float32", func(t *testing.T) { testJobs[float32](t, kern) })
	}
}

func testJobs[T batchlas.Float](t *testing.T, kern string) {
	r := rand.New(rand.NewPCG(3, uint64(len(typeName[T]()))))
	st := newStats()
	eps := epsOf[T]()
	big, tiny := scales[T]()
	shapes := [][2]int{{1, 1}, {1, 5}, {5, 1}, {2, 3}, {3, 2}, {7, 7}, {9, 4}, {4, 9}, {17, 8}, {8, 17}, {33, 16}, {16, 33}}
	for _, sh := range shapes {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for _, ci := range []int{0, 2, 3} { // normal, rankdef, repeated
			cls := classes[ci]
			g := rounded[T](cls.make(r, m, n, big, tiny))
			ref := refSV(g)
			var res [3][3]*call[T]
			for a, ju := range jobs {
				for b, jv := range jobs {
					c := newCallOf[T](kern, g, ju, jv)
					c.run()
					where := label[T](m, n, cls.name, ju, jv)
					c.check(t, g, ref, st, where)
					res[a][b] = c
				}
			}
			// s bit for bit across jobs: all nine, or for Bidiag (whose
			// values alone come from dqds) the eight with vectors.
			a0, b0 := 0, 0
			if !valuesBitForBit(kern, [2]Job{None, None}) {
				b0 = 1
			}
			base := label[T](m, n, cls.name, jobs[a0], jobs[b0])
			for a := range jobs {
				for b := range jobs {
					c := res[a][b]
					if !valuesBitForBit(kern, [2]Job{jobs[a], jobs[b]}) {
						continue
					}
					for i := 0; i < k; i++ {
						if c.s[i] != res[a0][b0].s[i] {
							t.Errorf("%s: s[%d] differs between jobs %s%s and %s%s", base, i, jobName(jobs[a]), jobName(jobs[b]), jobName(jobs[a0]), jobName(jobs[b0]))
						}
					}
				}
			}
			tol := bound * float64(max(m, n)) * eps
			for a := 1; a < 3; a++ {
				// U is the same whatever jobvt is.
				for b := 1; b < 3; b++ {
					if d := maxDiff(m, res[a][0].ucols, res[a][0].uAt, res[a][b].uAt); d != 0 {
						t.Errorf("%s: U with jobs %s%s differs from %sN by %g", base, jobName(jobs[a]), jobName(jobs[b]), jobName(jobs[a]), d)
					}
				}
				// VT (signs tied to U) is the same whatever jobu is, once
				// U is computed.
				if d := maxDiff(res[1][a].vrows, n, res[1][a].vtAt, res[2][a].vtAt); d > tol {
					t.Errorf("%s: VT with jobs S%s and A%s differ by %g", base, jobName(jobs[a]), jobName(jobs[a]), d)
				}
				// Thin is the leading part of All.
				d := maxDiff(m, k, res[1][a].uAt, res[2][a].uAt)
				st.add("thin-vs-all U", d/(float64(max(m, n))*eps), base)
				if d > tol {
					t.Errorf("%s: U Thin and All differ in the leading %d columns by %g", base, k, d)
				}
				d = maxDiff(k, n, res[a][1].vtAt, res[a][2].vtAt)
				st.add("thin-vs-all VT", d/(float64(max(m, n))*eps), base)
				if d > tol {
					t.Errorf("%s: VT Thin and All differ in the leading %d rows by %g", base, k, d)
				}
			}
		}
	}
	st.log(t)
}

// maxDiff is the largest |x(i,j) - y(i,j)| over p x q entries.
func maxDiff(p, q int, x, y func(i, j int) float64) float64 {
	d := 0.0
	for j := 0; j < q; j++ {
		for i := 0; i < p; i++ {
			d = math.Max(d, math.Abs(x(i, j)-y(i, j)))
		}
	}
	return d
}

// TestKernelsNonFinite puts NaN, +Inf or -Inf at several places of a
// matrix: info is k+1 and nothing is written.
func TestKernelsNonFinite(t *testing.T) {
	for _, kern := range kernels {
		t.Run(kern+"/float64", func(t *testing.T) { testNonFinite[float64](t, kern) })
		t.Run(kern+"/float32", func(t *testing.T) { testNonFinite[float32](t, kern) })
	}
}

func testNonFinite[T batchlas.Float](t *testing.T, kern string) {
	r := rand.New(rand.NewPCG(4, 0))
	for _, sh := range [][2]int{{1, 1}, {3, 3}, {5, 2}, {2, 5}, {7, 1}, {1, 7}, {17, 9}} {
		m, n := sh[0], sh[1]
		k := min(m, n)
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			for _, pos := range [][2]int{{0, 0}, {m - 1, n - 1}, {m / 2, n / 2}, {m - 1, 0}} {
				g := randNormal(r, m, n)
				g.d[pos[0]+pos[1]*m] = bad
				for _, ju := range jobs {
					for _, jv := range jobs {
						where := fmt.Sprintf("%s %v at %v", label[T](m, n, "normal", ju, jv), bad, pos)
						c := newCallOf[T](kern, g, ju, jv)
						c.run()
						if c.info != k+1 {
							t.Fatalf("%s: info = %d, want %d", where, c.info, k+1)
						}
						c.checkUntouched(t, g)
						// Nothing written: s, u and vt keep their sentinels.
						for i := 0; i < k; i++ {
							if c.s[i] != sentinel {
								t.Fatalf("%s: s[%d] = %v, want it untouched", where, i, c.s[i])
							}
						}
						for i, x := range c.u {
							if x != sentinel {
								t.Fatalf("%s: u[%d] = %v, want it untouched", where, i, x)
							}
						}
						for i, x := range c.vt {
							if x != sentinel {
								t.Fatalf("%s: vt[%d] = %v, want it untouched", where, i, x)
							}
						}
					}
				}
			}
		}
	}
}

// TestKernelsZeroSizes: with m or n zero nothing is computed, All jobs give
// the identity, and WorkSize is 0.
func TestKernelsZeroSizes(t *testing.T) {
	for _, kern := range kernels {
		for _, sh := range [][2]int{{0, 0}, {0, 3}, {3, 0}, {0, 1}, {1, 0}} {
			m, n := sh[0], sh[1]
			for _, ju := range jobs {
				for _, jv := range jobs {
					where := label[float64](m, n, "empty", ju, jv)
					if w := WorkSize[float64](m, n, ju, jv); w != 0 {
						t.Errorf("%s: WorkSize = %d, want 0", where, w)
					}
					c := newCallOf[float64](kern, newGeneral(m, n), ju, jv)
					c.run()
					if c.info != 0 {
						t.Fatalf("%s: info = %d", where, c.info)
					}
					c.checkUntouched(t, newGeneral(m, n))
					checkZeroVectors(t, c, where)
					// nil slices everywhere are fine too.
					if info := Jacobi[float32](m, n, nil, max(1, m), nil, None, None, nil, 1, nil, 1, nil); info != 0 {
						t.Fatalf("%s: info = %d with nil slices", where, info)
					}
				}
			}
		}
	}
}

// TestKernelsNoAllocs: with its workspace supplied no kernel does
// allocate.
func TestKernelsNoAllocs(t *testing.T) {
	for _, kern := range kernels {
		t.Run(kern+"/float64", func(t *testing.T) { testNoAllocs[float64](t, kern) })
		t.Run(kern+"/float32", func(t *testing.T) { testNoAllocs[float32](t, kern) })
	}
}

func testNoAllocs[T batchlas.Float](t *testing.T, kern string) {
	r := rand.New(rand.NewPCG(5, 0))
	for _, sh := range [][2]int{{1, 1}, {9, 9}, {17, 8}, {8, 17}, {33, 5}, {0, 4}} {
		m, n := sh[0], sh[1]
		for _, jb := range [][2]Job{{None, None}, {Thin, Thin}, {All, All}, {All, None}, {None, All}} {
			c := newCallOf[T](kern, randNormal(r, m, n), jb[0], jb[1])
			if allocs := testing.AllocsPerRun(5, c.run); allocs != 0 {
				t.Errorf("%s: %v allocations per call", label[T](m, n, "normal", jb[0], jb[1]), allocs)
			}
		}
	}
	// The non-finite path too.
	g := randNormal(r, 5, 3)
	g.d[4] = math.NaN()
	c := newCallOf[T](kern, g, All, All)
	if allocs := testing.AllocsPerRun(5, c.run); allocs != 0 {
		t.Errorf("NaN input: %v allocations per call", allocs)
	}
}

// TestJacobiNotConverged forces the sweep limit: info counts columns not
// converged (1..k), and the outputs are still written, finite, with V
// orthogonal and U S VT = A (the columns of A V are U S whether or not
// they are orthogonal yet).
func TestJacobiNotConverged(t *testing.T) {
	saved := maxSweeps
	defer func() { maxSweeps = saved }()
	r := rand.New(rand.NewPCG(6, 0))
	for _, sweepsLimit := range []int{0, 1} {
		maxSweeps = sweepsLimit
		for _, sh := range [][2]int{{33, 33}, {40, 17}, {17, 40}} {
			m, n := sh[0], sh[1]
			k := min(m, n)
			g := randNormal(r, m, n)
			c := newCall[float64](g, All, All)
			c.run()
			where := fmt.Sprintf("%dx%d, %d sweeps", m, n, sweepsLimit)
			if c.info < 1 || c.info > k {
				t.Fatalf("%s: info = %d, want 1..%d", where, c.info, k)
			}
			c.checkUntouched(t, g)
			eps := epsOf[float64]()
			for i := 0; i < k; i++ {
				if !(c.s[i] >= 0) || (i > 0 && c.s[i] > c.s[i-1]) {
					t.Fatalf("%s: s = %v", where, c.s[:k])
				}
			}
			// The right vectors of B (A's V, or A's U when wide) are
			// accumulated rotations.
			var q float64
			if m >= n {
				q = orthoRatio(n, n, func(i, j int) float64 { return c.vtAt(j, i) }, n, eps)
			} else {
				q = orthoRatio(m, m, c.uAt, m, eps)
			}
			if q > bound {
				t.Errorf("%s: rotated vectors not orthogonal, ratio %.3g", where, q)
			}
			res := 0.0
			for j := 0; j < n; j++ {
				for i := 0; i < m; i++ {
					x := g.at(i, j)
					for l := 0; l < k; l++ {
						x -= c.uAt(i, l) * c.s[l] * c.vtAt(l, j)
					}
					res += x * x
				}
			}
			if q := math.Sqrt(res) / (frob(g.d) * float64(max(m, n)) * eps); q > bound {
				t.Errorf("%s: residual ratio %.3g", where, q)
			}
		}
	}
}

// TestKernelsPowerOfTwoScaling: 2^j A gives singular values 2^j those of A
// and the same vectors, bit for bit, as long as 2^j A is exact: the
// pre-scaling makes both the same scaled matrix.
func TestKernelsPowerOfTwoScaling(t *testing.T) {
	for _, kern := range kernels {
		t.Run(kern+"/float64", func(t *testing.T) { testPow2[float64](t, kern, []int{-900, -300, 300, 900}) })
		t.Run(kern+"/float32", func(t *testing.T) { testPow2[float32](t, kern, []int{-90, -40, 40, 90}) })
	}
}

func testPow2[T batchlas.Float](t *testing.T, kern string, exps []int) {
	r := rand.New(rand.NewPCG(7, 0))
	for _, sh := range [][2]int{{9, 7}, {5, 12}, {6, 6}} {
		m, n := sh[0], sh[1]
		g := rounded[T](randNormal(r, m, n))
		c := newCallOf[T](kern, g, All, All)
		c.run()
		for _, e := range exps {
			h := newGeneral(m, n)
			for i, x := range g.d {
				h.d[i] = math.Ldexp(x, e)
			}
			d := newCallOf[T](kern, h, All, All)
			d.run()
			where := fmt.Sprintf("%s 2^%d", label[T](m, n, "normal", All, All), e)
			for i := 0; i < min(m, n); i++ {
				if float64(d.s[i]) != math.Ldexp(float64(c.s[i]), e) {
					t.Errorf("%s: s[%d] = %v, want %v", where, i, d.s[i], math.Ldexp(float64(c.s[i]), e))
				}
			}
			if maxDiff(m, m, c.uAt, d.uAt) != 0 || maxDiff(n, n, c.vtAt, d.vtAt) != 0 {
				t.Errorf("%s: vectors differ from those of A", where)
			}
		}
	}
}

// TestKernelsExtremes: entries at the ends of the range factor without
// NaN: the largest finite entries (s_max overflows to +Inf, honestly),
// subnormal entries (exact singular values), both mixed.
func TestKernelsExtremes(t *testing.T) {
	for _, kern := range kernels {
		eps := epsOf[float64]()
		maxf, tinyf := math.MaxFloat64, math.SmallestNonzeroFloat64
		cases := []struct {
			name string
			g    general
			want []float64 // nil: checked against gonum instead
		}{
			// s_max = 3 MaxFloat64 overflows: +Inf, the others tiny.
			{"max", general{3, 3, []float64{maxf, maxf, maxf, maxf, maxf, maxf, maxf, maxf, maxf}}, []float64{math.Inf(1)}},
			{"max diag", general{2, 2, []float64{maxf, 0, 0, -maxf / 2}}, []float64{maxf, maxf / 2}},
			{"subnormal diag", general{3, 3, []float64{tinyf, 0, 0, 0, 3 * tinyf, 0, 0, 0, 2 * tinyf}}, []float64{3 * tinyf, 2 * tinyf, tinyf}},
			{"mixed", general{3, 2, []float64{1e300, tinyf, -1e-300, 5 * tinyf, 1, 2e-310}}, nil},
			{"mixed wide", general{2, 3, []float64{maxf / 4, 1e-320, 1, -1e-200, 7e-310, 3}}, nil},
		}
		for _, tc := range cases {
			m, n := tc.g.m, tc.g.n
			c := newCallOf[float64](kern, tc.g, All, All)
			c.run()
			if c.info != 0 {
				t.Fatalf("%s: info = %d", tc.name, c.info)
			}
			c.checkUntouched(t, tc.g)
			for i := 0; i < min(m, n); i++ {
				if c.s[i] != c.s[i] || c.s[i] < 0 {
					t.Fatalf("%s: s = %v", tc.name, c.s)
				}
				if i < len(tc.want) && c.s[i] != tc.want[i] {
					t.Errorf("%s: s[%d] = %v, want %v", tc.name, i, c.s[i], tc.want[i])
				}
			}
			if r := orthoRatio(m, m, c.uAt, max(m, n), eps); !(r <= bound) {
				t.Errorf("%s: U not orthogonal, ratio %v", tc.name, r)
			}
			if r := orthoRatio(n, n, func(i, j int) float64 { return c.vtAt(j, i) }, n, eps); !(r <= bound) {
				t.Errorf("%s: V not orthogonal, ratio %v", tc.name, r)
			}
			if tc.want == nil {
				c.check(t, tc.g, refSV(tc.g), newStats(), tc.name)
			}
		}
	}
}

// TestKernelsExact covers small cases with known answers: ties keep their
// order (the identity gives U = V = I), diagonal matrices are sorted with
// their vectors, and the sign convention moves signs into VT.
func TestKernelsExact(t *testing.T) {
	for _, kern := range kernels {
		type want struct {
			s, u, vt []float64 // u m x m and vt n x n, column-major
		}
		cases := []struct {
			name string
			g    general
			w    want
		}{
			{"1x1 negative", general{1, 1, []float64{-3}}, want{[]float64{3}, []float64{1}, []float64{-1}}},
			{"identity 3x3", general{3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
				want{[]float64{1, 1, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}}},
			{"identity 3x2", general{3, 2, []float64{1, 0, 0, 0, 1, 0}},
				want{[]float64{1, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}, []float64{1, 0, 0, 1}}},
			{"identity 2x3", general{2, 3, []float64{1, 0, 0, 1, 0, 0}},
				want{[]float64{1, 1}, []float64{1, 0, 0, 1}, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}}},
			{"diag(1,3,2)", general{3, 3, []float64{1, 0, 0, 0, 3, 0, 0, 0, 2}},
				want{[]float64{3, 2, 1}, []float64{0, 1, 0, 0, 0, 1, 1, 0, 0}, []float64{0, 0, 1, 1, 0, 0, 0, 1, 0}}},
			{"diag(-2,1)", general{2, 2, []float64{-2, 0, 0, 1}},
				want{[]float64{2, 1}, []float64{1, 0, 0, 1}, []float64{-1, 0, 0, 1}}},
			{"row (3,-4)", general{1, 2, []float64{3, -4}},
				want{[]float64{5}, []float64{1}, nil}},
		}
		for _, tc := range cases {
			m, n := tc.g.m, tc.g.n
			c := newCallOf[float64](kern, tc.g, All, All)
			c.run()
			c.check(t, tc.g, refSV(tc.g), newStats(), tc.name)
			for i, x := range tc.w.s {
				if c.s[i] != x {
					t.Errorf("%s: s = %v, want %v", tc.name, c.s[:len(tc.w.s)], tc.w.s)
					break
				}
			}
			for j := 0; j < m && tc.w.u != nil; j++ {
				for i := 0; i < m; i++ {
					if c.uAt(i, j) != tc.w.u[i+j*m] {
						t.Errorf("%s: U(%d,%d) = %v, want %v", tc.name, i, j, c.uAt(i, j), tc.w.u[i+j*m])
					}
				}
			}
			for j := 0; j < n && tc.w.vt != nil; j++ {
				for i := 0; i < n; i++ {
					if c.vtAt(i, j) != tc.w.vt[i+j*n] {
						t.Errorf("%s: VT(%d,%d) = %v, want %v", tc.name, i, j, c.vtAt(i, j), tc.w.vt[i+j*n])
					}
				}
			}
		}
		// The row vector: VT's first row is a/||a||, sign from U = [1].
		c := newCallOf[float64](kern, general{1, 2, []float64{3, -4}}, All, All)
		c.run()
		if math.Abs(c.vtAt(0, 0)-0.6) > 4*epsOf[float64]() || math.Abs(c.vtAt(0, 1)+0.8) > 4*epsOf[float64]() {
			t.Errorf("row (3,-4): VT's first row = (%v, %v), want (0.6, -0.8)", c.vtAt(0, 0), c.vtAt(0, 1))
		}
	}
}

// TestJacobiSweepCount finds the fewest sweeps after which Jacobi reports
// convergence on a few matrices, and fails when that is more than 20:
// tol must stay above the rounding noise of the computed dot products, or
// the last sweeps would keep rotating on noise and never end clean.
func TestJacobiSweepCount(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testSweepCount[float64](t) })
	t.Run("float32", func(t *testing.T) { testSweepCount[float32](t) })
}

func testSweepCount[T batchlas.Float](t *testing.T) {
	saved := maxSweeps
	defer func() { maxSweeps = saved }()
	r := rand.New(rand.NewPCG(8, 0))
	big, tiny := scales[T]()
	for _, sh := range [][2]int{{128, 128}, {65, 65}, {257, 8}, {8, 257}, {17, 17}} {
		m, n := sh[0], sh[1]
		for _, ci := range []int{0, 1, 2, 3} {
			g := rounded[T](classes[ci].make(r, m, n, big, tiny))
			c := newCall[T](g, None, None)
			need := -1
			for s := 1; s <= 20; s++ {
				maxSweeps = s
				c.run()
				if c.info == 0 {
					need = s
					break
				}
			}
			where := label[T](m, n, classes[ci].name, None, None)
			if need < 0 {
				t.Errorf("%s: not converged in 20 sweeps (info %d)", where, c.info)
				continue
			}
			t.Logf("%s: %d sweeps", where, need)
		}
	}
}
