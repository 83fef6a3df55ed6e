package lanessvd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// sweeps_amd64.s is exactly what gen.go writes, sweeps_avx2_amd64.s what
// gen_avx2.go writes.
func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "sweeps_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "sweeps_avx2_amd64.s")
}

// orders straddle the loops' ends: no pair, one pair, odd and even
// counts, one vector's worth of lanes and more.
var orders = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, MaxOrder}

// inactive is the lane that group leaves out of its active mask.
const inactive = 5

// eps is T's machine epsilon (the spacing above 1).
func eps[T batchlas.Float]() float64 {
	if Lanes[T]() == 16 {
		return 0x1p-23
	}
	return 0x1p-52
}

// params are the constants the tests run Sweeps with, those of svd's
// per-matrix sweeps but for big:
//
//   - tol = eps*sqrt(n): a computed dot product of n terms is off by some
//     sqrt(n)*eps*||x||*||y||, so asking for less would rotate on noise;
//   - small = the smallest normal number over eps (2^-970, 2^-103 for
//     float32): a column whose squared norm is below it has lost digits
//     to underflow in its sums, and a rotation made from them is noise;
//   - big = 1/eps^2 (2^104, 2^46): from there 1 + zeta^2 is zeta^2 many
//     times over, yet zeta^2 stays far from overflow; svd takes
//     1/sqrt(eps)-ish values (2^27, 2^12), which the agreement test runs
//     too, so that both branches of t are compared.
func params[T batchlas.Float](n int) (tol, small, big T) {
	e := eps[T]()
	minNormal := 0x1p-1022
	if Lanes[T]() == 16 {
		minNormal = 0x1p-126
	}
	return T(e * math.Sqrt(float64(n))), T(minNormal / e), T(1 / (e * e))
}

// svdBig is package svd's threshold of the large-zeta branch.
func svdBig[T batchlas.Float]() T {
	if Lanes[T]() == 16 {
		return 0x1p12
	}
	return 0x1p27
}

// scales are the magnitudes of the huge and tiny lanes.
func scales[T batchlas.Float]() (huge, tiny float64) {
	if Lanes[T]() == 16 {
		return 1e15, 1e-15
	}
	return 1e150, 1e-150
}

// group returns a group of n x n matrices, a different kind per lane,
// its active mask (every lane but inactive) and v: the identity in the
// active lanes, NaN in the inactive one. Lane l % 8 is
//
//	0 random normal            4 zero
//	1 graded columns 1e-8..1e8 5 inactive: random with NaN, Inf and -Inf
//	2 rank n/2 (rank 1 n < 4)  6 normal times huge (1e150; 1e15 float32)
//	3 every column the same    7 normal times tiny (1e-150; 1e-15)
//
// and float32's lane 13 is the identity plus noise of 1e-3.
func group[T batchlas.Float](r *rand.Rand, n int) (g, v []T, active uint64) {
	L := Lanes[T]()
	g, v = make([]T, n*n*L), make([]T, n*n*L)
	at := func(row, c, l int) int { return (c*n+row)*L + l }
	huge, tiny := scales[T]()
	for l := range L {
		kind := l % 8
		if l == 13 {
			kind = 8
		}
		set := func(row, c int, x float64) { g[at(row, c, l)] = T(x) }
		switch kind {
		case 0, 5, 6, 7:
			s := map[int]float64{0: 1, 5: 1, 6: huge, 7: tiny}[kind]
			for i := range n * n {
				set(i%n, i/n, s*r.NormFloat64())
			}
		case 1:
			for c := range n {
				s := math.Pow(10, -8+16*float64(c)/float64(max(n-1, 1)))
				for row := range n {
					set(row, c, s*r.NormFloat64())
				}
			}
		case 2:
			k := max(1, n/2)
			b, d := make([]float64, n*k), make([]float64, k*n)
			for i := range b {
				b[i], d[i] = r.NormFloat64(), r.NormFloat64()
			}
			for c := range n {
				for row := range n {
					x := 0.0
					for j := range k {
						x += b[j*n+row] * d[c*k+j]
					}
					set(row, c, x)
				}
			}
		case 3:
			col := make([]float64, n)
			for i := range col {
				col[i] = r.NormFloat64()
			}
			for c := range n {
				for row := range n {
					set(row, c, col[row])
				}
			}
		case 4:
		case 8:
			for c := range n {
				for row := range n {
					x := 1e-3 * r.NormFloat64()
					if row == c {
						x++
					}
					set(row, c, x)
				}
			}
		}
		if kind == 5 && n > 0 {
			set(0, 0, math.NaN())
			set(n-1, n-1, math.Inf(1))
			set(n/2, 0, math.Inf(-1))
		}
		for c := range n {
			for row := range n {
				x := 0.0
				switch {
				case l == inactive:
					x = math.NaN()
				case row == c:
					x = 1
				}
				v[at(row, c, l)] = T(x)
			}
		}
	}
	all := uint64(1)<<L - 1
	return g, v, all &^ (1 << inactive)
}

// run calls Sweeps on one code path (simdpath's names).
func run[T batchlas.Float](path string, g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	defer simdpath.Use(path)()
	return Sweeps(g, v, n, maxSweeps, active, tol, small, big)
}

// bits is x's bit pattern in T's own width (a float32 NaN's payload is
// kept as it is).
func bits[T batchlas.Float](x T) uint64 {
	if f, ok := any(x).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(x))
}

// firstDiff is the first index where x and y differ in their bits, or
// -1; with nanOK, any two NaNs match (the NaN an operation makes from two
// NaNs depends on its operands' order, which the compiler may swap).
func firstDiff[T batchlas.Float](x, y []T, nanOK bool) int {
	if len(x) != len(y) {
		return min(len(x), len(y))
	}
	for i := range x {
		if nanOK && x[i] != x[i] && y[i] != y[i] {
			continue
		}
		if bits(x[i]) != bits(y[i]) {
			return i
		}
	}
	return -1
}

// laneDiff is the first element of lane l where groups x and y differ
// in their bits, or -1.
func laneDiff[T batchlas.Float](x, y []T, l int) int {
	L := Lanes[T]()
	for i := l; i < len(x); i += L {
		if bits(x[i]) != bits(y[i]) {
			return i / L
		}
	}
	return -1
}

func TestPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testPathsAgree[float64](t, path)
		testPathsAgree[float32](t, path)
	})
}

// testPathsAgree runs the assembly and the twin on the same groups, with
// and without v, stopped after one and three sweeps and to convergence,
// with both thresholds of the large-zeta branch, and wants the same bits
// and the same result, and the inactive lane untouched. MaxOrder, whose
// twin runs take most of the test's time, runs three sweeps with the
// first threshold only: enough to reach the frame's last norm and update
// it across sweeps.
func testPathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range orders {
		tol, small, big := params[T](n)
		bigs, sweeps := []T{big, svdBig[T]()}, []int{1, 3, 60}
		if n == MaxOrder {
			bigs, sweeps = bigs[:1], []int{3}
		}
		for _, bg := range bigs {
			for _, maxSweeps := range sweeps {
				for _, withV := range []bool{false, true} {
					g, v, active := group[T](r, n)
					g0, v0 := slices.Clone(g), slices.Clone(v)
					if !withV {
						v = nil
					}
					g2, v2 := slices.Clone(g), slices.Clone(v)
					rot := run(path, g, v, n, maxSweeps, active, tol, small, bg)
					rot2 := run(simdpath.Go, g2, v2, n, maxSweeps, active, tol, small, bg)
					name := fmt.Sprintf("%T %s n=%d big=%g sweeps=%d v=%v", T(0), path, n, float64(bg), maxSweeps, withV)
					if rot != rot2 {
						t.Errorf("%s: assembly returned %b, twin %b", name, rot, rot2)
					}
					if i := firstDiff(g, g2, false); i >= 0 {
						t.Errorf("%s: g[%d] assembly %v, twin %v", name, i, g[i], g2[i])
					}
					if i := firstDiff(v, v2, false); i >= 0 {
						t.Errorf("%s: v[%d] assembly %v, twin %v", name, i, v[i], v2[i])
					}
					if i := laneDiff(g, g0, inactive); i >= 0 {
						t.Errorf("%s: the inactive lane's g changed at %d", name, i)
					}
					if withV {
						if i := laneDiff(v, v0, inactive); i >= 0 {
							t.Errorf("%s: the inactive lane's v changed at %d", name, i)
						}
					}
				}
			}
		}
	}
}

// An active lane holding NaN and Inf keeps rotating, is reported after
// the last sweep, and changes nothing in the other lanes: they end bit
// for bit as they do with it inactive. Both paths agree on it (any NaN
// matching any NaN).
func TestActiveNaNLaneStaysInItsLane(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testActiveNaN[float64](t, path)
		testActiveNaN[float32](t, path)
	}
}

func testActiveNaN[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{2, 5, 9} {
		tol, small, big := params[T](n)
		g, v, active := group[T](r, n)
		for c := range n {
			for row := range n {
				x := T(0)
				if row == c {
					x = 1
				}
				v[(c*n+row)*Lanes[T]()+inactive] = x
			}
		}
		g2, v2 := slices.Clone(g), slices.Clone(v)
		rot := run(path, g, v, n, 60, active|1<<inactive, tol, small, big)
		rot2 := run(path, g2, v2, n, 60, active, tol, small, big)
		name := fmt.Sprintf("%T %s n=%d", T(0), path, n)
		if rot != 1<<inactive || rot2 != 0 {
			t.Errorf("%s: returned %b with the NaN lane active, %b without; want %b and 0", name, rot, rot2, 1<<inactive)
		}
		for l := range Lanes[T]() {
			if l == inactive {
				continue
			}
			if i := laneDiff(g, g2, l); i >= 0 {
				t.Errorf("%s: lane %d's g differs at %d beside an active NaN lane", name, l, i)
			}
			if i := laneDiff(v, v2, l); i >= 0 {
				t.Errorf("%s: lane %d's v differs at %d beside an active NaN lane", name, l, i)
			}
		}
	}
	if path == simdpath.Go {
		return
	}
	// The paths agree on the NaN lane itself.
	for _, n := range []int{3, 8} {
		tol, small, big := params[T](n)
		g, v, active := group[T](r, n)
		g2, v2 := slices.Clone(g), slices.Clone(v)
		rot := run(path, g, v, n, 4, active|1<<inactive, tol, small, big)
		rot2 := run(simdpath.Go, g2, v2, n, 4, active|1<<inactive, tol, small, big)
		if rot != rot2 {
			t.Errorf("%T %s n=%d: assembly returned %b, twin %b", T(0), path, n, rot, rot2)
		}
		if i := firstDiff(g, g2, true); i >= 0 {
			t.Errorf("%T %s n=%d: g[%d] assembly %v, twin %v", T(0), path, n, i, g[i], g2[i])
		}
		if i := firstDiff(v, v2, true); i >= 0 {
			t.Errorf("%T %s n=%d: v[%d] assembly %v, twin %v", T(0), path, n, i, v[i], v2[i])
		}
	}
}

func TestSweepsOrthogonalise(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testOrthogonalise[float64](t, path)
		testOrthogonalise[float32](t, path)
	}
}

// testOrthogonalise runs each group to convergence and checks every
// active lane against what one-sided Jacobi promises, with gonum's SVD as
// the independent reference: the columns of G mutually orthogonal,
// G_out V^T = G_in, V orthogonal, and G_out's column norms, sorted, the
// singular values. A lane whose columns all have squared norms below
// small (float64's tiny lane) must be left as it is. The inactive lane is
// left bit for bit, and another sweep of the result rotates nothing.
func testOrthogonalise[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(3, 4))
	L, e := Lanes[T](), eps[T]()
	for _, n := range orders[2:] {
		tol, small, big := params[T](n)
		g, v, active := group[T](r, n)
		g0, v0 := slices.Clone(g), slices.Clone(v)
		name := fmt.Sprintf("%T %s n=%d", T(0), path, n)
		if rot := run(path, g, v, n, 60, active, tol, small, big); rot != 0 {
			t.Errorf("%s: lanes %b still rotating after 60 sweeps", name, rot)
			continue
		}
		g1, v1 := slices.Clone(g), slices.Clone(v)
		if rot := run(path, g1, v1, n, 1, active, tol, small, big); rot != 0 || firstDiff(g1, g, false) >= 0 || firstDiff(v1, v, false) >= 0 {
			t.Errorf("%s: a sweep of the converged group rotated %b", name, rot)
		}
		if i := laneDiff(g, g0, inactive); i >= 0 {
			t.Errorf("%s: the inactive lane's g changed at %d", name, i)
		}
		if i := laneDiff(v, v0, inactive); i >= 0 {
			t.Errorf("%s: the inactive lane's v changed at %d", name, i)
		}
		for l := range L {
			if l == inactive {
				continue
			}
			// The lane in float64, scaled by a power of two near its
			// largest input entry (exact) so that no norm below
			// overflows or underflows.
			in, out, vm := mat.NewDense(n, n, nil), mat.NewDense(n, n, nil), mat.NewDense(n, n, nil)
			amax, negligible := 0.0, true
			for c := range n {
				ss := 0.0
				for row := range n {
					x := float64(g0[(c*n+row)*L+l])
					amax = max(amax, math.Abs(x))
					ss += x * x
				}
				negligible = negligible && ss < float64(small)
			}
			if negligible {
				if i := laneDiff(g, g0, l); i >= 0 {
					t.Errorf("%s lane %d: columns below small changed at %d", name, l, i)
				}
				if i := laneDiff(v, v0, l); i >= 0 {
					t.Errorf("%s lane %d: v of columns below small changed at %d", name, l, i)
				}
				continue
			}
			_, exp := math.Frexp(amax)
			for c := range n {
				for row := range n {
					k := (c*n+row)*L + l
					in.Set(row, c, math.Ldexp(float64(g0[k]), -exp))
					out.Set(row, c, math.Ldexp(float64(g[k]), -exp))
					vm.Set(row, c, float64(v[k]))
				}
			}
			// The columns Sweeps leaves out of rotations: squared norm
			// below small.
			out2 := make([]bool, n)
			for c := range n {
				ss := 0.0
				for row := range n {
					x := float64(g[(c*n+row)*L+l])
					ss += x * x
				}
				out2[c] = ss < float64(small)
			}
			lname := fmt.Sprintf("%s lane %d", name, l)
			checkLane(t, lname, in, out, vm, out2, n, e)
		}
	}
}

// checkLane checks one lane's result (out and vm, from in) in float64.
func checkLane(t *testing.T, name string, in, out, vm *mat.Dense, below []bool, n int, e float64) {
	t.Helper()
	fn := float64(n)
	norms := make([]float64, n)
	for c := range n {
		norms[c] = mat.Norm(out.ColView(c), 2)
	}
	for p := range n {
		for q := p + 1; q < n; q++ {
			if below[p] || below[q] {
				continue // never rotated: not orthogonalised
			}
			d := mat.Dot(out.ColView(p), out.ColView(q))
			if !(math.Abs(d) <= 8*fn*e*norms[p]*norms[q]) {
				t.Errorf("%s: columns %d and %d: |dot| = %g > 8 n eps |g_p| |g_q| = %g", name, p, q, math.Abs(d), 8*fn*e*norms[p]*norms[q])
				return
			}
		}
	}
	normIn := mat.Norm(in, 2) // Frobenius
	var rec mat.Dense
	rec.Mul(out, vm.T())
	rec.Sub(&rec, in)
	if d := mat.Norm(&rec, 2); !(d <= 64*fn*e*normIn) {
		t.Errorf("%s: ||G_out V^T - G_in||_F = %g > 64 n eps ||G_in||_F = %g", name, d, 64*fn*e*normIn)
	}
	var vtv mat.Dense
	vtv.Mul(vm.T(), vm)
	for i := range n {
		vtv.Set(i, i, vtv.At(i, i)-1)
	}
	d := 0.0
	for i := range n {
		for j := range n {
			d = max(d, math.Abs(vtv.At(i, j)))
		}
	}
	if !(d <= 64*fn*e) {
		t.Errorf("%s: max |V^T V - I| = %g > 64 n eps", name, d)
	}
	var svd mat.SVD
	if !svd.Factorize(in, mat.SVDNone) {
		t.Fatalf("%s: gonum's SVD failed", name)
	}
	want := svd.Values(nil)
	// The columns left out of rotations (below small) are not
	// orthogonalised: with them zeroed, G's columns are orthogonal and
	// their norms its singular values, and zeroing them moves each
	// singular value (Weyl) and each sorted norm by at most their
	// Frobenius norm.
	left := 0.0
	for c := range n {
		if below[c] {
			left += norms[c] * norms[c]
		}
	}
	tol := 64*fn*e*want[0] + 2*math.Sqrt(left)
	slices.Sort(norms)
	slices.Reverse(norms)
	for k := range n {
		if !(math.Abs(norms[k]-want[k]) <= tol) {
			t.Errorf("%s: singular value %d is %g, gonum %g", name, k, norms[k], want[k])
			return
		}
	}
}

// One sweep does not finish a random group of order 4 or more: Sweeps
// reports the lanes still rotating, all of them active.
func TestOneSweepReportsRotatingLanes(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testOneSweep[float64](t, path)
		testOneSweep[float32](t, path)
	}
}

func testOneSweep[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(5, 6))
	L := Lanes[T]()
	for _, n := range []int{4, 8, 17} {
		tol, small, big := params[T](n)
		g := make([]T, n*n*L)
		for i := range g {
			g[i] = T(r.NormFloat64())
		}
		active := uint64(1)<<L - 1&^0b1010
		rot := run(path, g, nil, n, 1, active, tol, small, big)
		if rot == 0 || rot&^active != 0 {
			t.Errorf("%T %s n=%d: one sweep returned %b (active %b)", T(0), path, n, rot, active)
		}
	}
}

// With no active lane, no sweep, or fewer than two columns, Sweeps
// returns 0 and changes nothing; lane bits beyond the group's are ignored.
func TestNothingToDo(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testNothingToDo[float64](t, path)
		testNothingToDo[float32](t, path)
	}
}

func testNothingToDo[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(9, 10))
	L := Lanes[T]()
	for _, n := range []int{0, 1, 2, 7} {
		tol, small, big := params[T](n)
		g, v, _ := group[T](r, n)
		g0, v0 := slices.Clone(g), slices.Clone(v)
		for _, c := range []struct {
			active    uint64
			maxSweeps int
		}{{0, 60}, {^uint64(0) << L, 60}, {uint64(1)<<L - 1, 0}, {uint64(1)<<L - 1, -1}} {
			if rot := run(path, g, v, n, c.maxSweeps, c.active, tol, small, big); rot != 0 {
				t.Errorf("%T %s n=%d active=%x sweeps=%d: returned %b", T(0), path, n, c.active, c.maxSweeps, rot)
			}
			if firstDiff(g, g0, false) >= 0 || firstDiff(v, v0, false) >= 0 {
				t.Errorf("%T %s n=%d active=%x sweeps=%d: changed the group", T(0), path, n, c.active, c.maxSweeps)
			}
		}
		if n >= 2 {
			// With lane 0 alone active, no other lane changes.
			g1 := slices.Clone(g)
			run(path, g1, nil, n, 60, 1, tol, small, big)
			for l := 1; l < L; l++ {
				if i := laneDiff(g1, g0, l); i >= 0 {
					t.Errorf("%T %s n=%d: lane %d changed with only lane 0 active", T(0), path, n, l)
				}
			}
		}
	}
}

// Sweeps wants n*n*Lanes elements in g and in v.
func TestShortSlicesPanic(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Sweeps on a short g did not panic")
		}
	}()
	Sweeps(make([]float64, 3*3*8-1), nil, 3, 1, 1, 1e-15, 1e-300, 1e30)
}

// Past MaxOrder, whose norms the assembly's frame would not hold, both
// functions panic rather than write beyond it.
func TestPastMaxOrderPanics(t *testing.T) {
	n := MaxOrder + 1
	g := make([]float64, n*n*8)
	for name, call := range map[string]func(){
		"Sweeps":  func() { Sweeps(g, nil, n, 1, 1, 1e-15, 1e-300, 1e30) },
		"Sweeps2": func() { Sweeps2(g, nil, g, nil, n, 1, 1, 1, 1e-15, 1e-300, 1e30) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of order %d did not panic", name, n)
				}
			}()
			call()
		}()
	}
}

// The assembly's frames hold MaxOrder vectors of norms a group: sweeps'
// one group's, sweeps2's and lockstep2's two, and the AVX2 sweeps' one.
func TestFrameHoldsMaxOrder(t *testing.T) {
	for _, f := range []struct {
		file  string
		want  map[string]int
		count int
	}{
		{"sweeps_amd64.s", map[string]int{"sweeps": 1, "sweeps2": 2, "lockstep2": 2}, 6},
		{"sweeps_avx2_amd64.s", map[string]int{"sweepsAVX2": 1}, 2},
	} {
		src, err := os.ReadFile(f.file)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`TEXT ·(sweeps|sweeps2|lockstep2|sweepsAVX2)F(?:64|32)\(SB\), \$(\d+)-`)
		found := 0
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			found++
			if frame, _ := strconv.Atoi(m[2]); frame < f.want[m[1]]*MaxOrder*64 {
				t.Errorf("%s: %sF's frame is %d bytes, under %d groups of MaxOrder (%d) vectors", f.file, m[1], frame, f.want[m[1]], MaxOrder)
			}
		}
		if found != f.count {
			t.Errorf("found %d sweep functions' frames in %s, want %d", found, f.file, f.count)
		}
	}
}

// run2 calls Sweeps2 on one code path (simdpath's names).
func run2[T batchlas.Float](path string, g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	defer simdpath.Use(path)()
	return Sweeps2(g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
}

func TestSweeps2IsSweepsOnEach(t *testing.T) {
	testSweeps2[float64](t)
	testSweeps2[float32](t)
}

// testSweeps2 runs Sweeps2 on two groups of different matrices, on every
// path, and wants for each group the bits and the result Sweeps gives it
// alone on the same path (NaN included: the second group's NaN lane is
// active): stopped after one and three sweeps and, up to order 17, to
// convergence (the two groups needing different numbers of sweeps), with and without v, and
// with either group's lanes all inactive or down to one.
func testSweeps2[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 3, 4, 5, 8, 9, 17, 32} {
		tol, small, big := params[T](n)
		for _, maxSweeps := range []int{1, 3, 60} {
			if n > 17 && maxSweeps > 3 {
				continue // to convergence at 32 the Go twin takes seconds
			}
			for _, withV := range []bool{false, true} {
				g1, v1, all1 := group[T](r, n)
				g2, v2, all2 := group[T](r, n)
				// The second group's lanes shuffled, so the two groups
				// differ in every lane (and in when they converge).
				perm := r.Perm(Lanes[T]())
				for e := 0; e < len(g2); e += Lanes[T]() {
					row := slices.Clone(g2[e : e+Lanes[T]()])
					for l, p := range perm {
						g2[e+l] = row[p]
					}
				}
				if !withV {
					v1, v2 = nil, nil
				}
				for _, act := range [][2]uint64{{all1, all2}, {all1, 0}, {0, all2}, {1, all2}, {all1, 1 << 2}} {
					for _, path := range simdpath.Paths() {
						a1, b1, a2, b2 := slices.Clone(g1), slices.Clone(v1), slices.Clone(g2), slices.Clone(v2)
						got1, got2 := run2(path, a1, b1, a2, b2, n, maxSweeps, act[0], act[1], tol, small, big)
						w1, x1, w2, x2 := slices.Clone(g1), slices.Clone(v1), slices.Clone(g2), slices.Clone(v2)
						want1 := run(path, w1, x1, n, maxSweeps, act[0], tol, small, big)
						want2 := run(path, w2, x2, n, maxSweeps, act[1], tol, small, big)
						name := fmt.Sprintf("%T n=%d sweeps=%d v=%v active=%b,%b %s", T(0), n, maxSweeps, withV, act[0], act[1], path)
						if got1 != want1 || got2 != want2 {
							t.Errorf("%s: returned %b, %b; Sweeps on each %b, %b", name, got1, got2, want1, want2)
						}
						for _, c := range [][2][]T{{a1, w1}, {b1, x1}, {a2, w2}, {b2, x2}} {
							if i := firstDiff(c[0], c[1], false); i >= 0 {
								t.Fatalf("%s: element %d is %v, Sweeps on its group gives %v", name, i, c[0][i], c[1][i])
							}
						}
					}
				}
			}
		}
	}
}
