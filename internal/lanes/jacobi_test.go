package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// lanes_amd64.s is exactly what gen.go writes.
func TestAssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "lanes_amd64.s") }

func TestAVX2AssemblyIsGenerated(t *testing.T) {
	testmat.CheckGeneratedBy(t, "gen_avx2.go", "lanes_avx2_amd64.s")
}

// orders straddle the loop ends of the assembly (one pair, a single
// sweep's worth) and the sizes the syev op sends.
var orders = []int{1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 33}

// group fills the interleaved group a (n x n per lane, both triangles)
// with a different kind of symmetric matrix per lane: random, zero,
// diagonal, a repeated eigenvalue (3I plus a rank-one term), entries far
// below one and a graded matrix, the rest random; and v with the identity.
func group[T batchlas.Float](r *rand.Rand, n, ld int) (a, v []T) {
	L := Lanes[T]()
	a, v = make([]T, n*ld*L), make([]T, n*ld*L)
	set := func(x []T, l, row, col int, val float64) {
		x[(col*ld+row)*L+l] = T(val)
		x[(row*ld+col)*L+l] = T(val)
	}
	for l := 0; l < L; l++ {
		for c := 0; c < n; c++ {
			v[(c*ld+c)*L+l] = 1
			for row := 0; row <= c; row++ {
				var val float64
				switch l {
				case 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15:
					val = r.NormFloat64()
				case 1:
				case 2:
					if row == c {
						val = float64(n - c)
					}
				case 3:
					val = 0.25
					if row == c {
						val += 3
					}
				case 4:
					val = 1e-12 * r.NormFloat64()
				case 5:
					val = r.NormFloat64() * math.Pow(10, -float64(row+c)/2)
				}
				set(a, l, row, c, val)
			}
		}
	}
	return a, v
}

func run[T batchlas.Float](path string, a, v []T, n, ld, sweeps int) (uint64, int) {
	defer simdpath.Use(path)()
	return Jacobi(a, v, n, ld, sweeps, T(eps[T]()), tiny[T](), make([]T, JacobiWork[T](n)))
}

func eps[T batchlas.Float]() float64 {
	if Lanes[T]() == 16 {
		return 0x1p-24
	}
	return 0x1p-53
}

func tiny[T batchlas.Float]() T {
	if Lanes[T]() == 16 {
		return T(0x1p-126)
	}
	x := 0x1p-1022
	return T(x)
}

func TestJacobiPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testPathsAgree[float64](t, path)
		testPathsAgree[float32](t, path)
	})
}

// testPathsAgree runs the assembly and the twin on the same groups, to
// convergence and stopped after one and two sweeps, with and without
// vectors, and wants the same bits.
func testPathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range orders {
		for _, sweeps := range []int{1, 2, 30} {
			for _, vectors := range []bool{false, true} {
				ld := lds(n)[sweeps%len(lds(n))]
				a, v := group[T](r, n, ld)
				if !vectors {
					v = nil
				}
				a2, v2 := slices.Clone(a), slices.Clone(v)
				rot, made := run(path, a, v, n, ld, sweeps)
				rot2, made2 := run("go", a2, v2, n, ld, sweeps)
				name := fmt.Sprintf("%T %s n=%d ld=%d sweeps=%d vectors=%v", T(0), path, n, ld, sweeps, vectors)
				if rot != rot2 || made != made2 {
					t.Errorf("%s: assembly rotated %b in sweep %d, twin %b in sweep %d", name, rot, made, rot2, made2)
				}
				sameBitsAs(t, name+": a", a, a2)
				sameBitsAs(t, name+": v", v, v2)
			}
		}
	}
}

// sameBitsAs reports the first element where the assembly's result asm
// and the twin's differ in their bits.
func sameBitsAs[T batchlas.Float](t *testing.T, what string, asm, twin []T) {
	t.Helper()
	if i := firstDiff(asm, twin); i >= 0 {
		t.Errorf("%s[%d]: assembly %v, twin %v", what, i, asm[i], twin[i])
	}
}

// firstDiff is the first index where x and y differ in their bits, or -1.
func firstDiff[T batchlas.Float](x, y []T) int {
	for i := range x {
		if math.Float64bits(float64(x[i])) != math.Float64bits(float64(y[i])) {
			return i
		}
	}
	return -1
}

func TestJacobiDiagonalises(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testDiagonalises[float64](t, path)
		testDiagonalises[float32](t, path)
	}
}

// testDiagonalises checks each lane's result against gonum: the
// eigenvalues, sorted, against mat.EigenSym's, and the vectors by
// ||A V - V diag(d)|| and ||V^T V - I||, in units of n*eps*||A||.
func testDiagonalises[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(3, 4))
	L, e := Lanes[T](), eps[T]()
	for _, n := range orders {
		ld := GroupLD(n)
		a, v := group[T](r, n, ld)
		a0 := slices.Clone(a)
		rot, made := run(path, a, v, n, ld, 30)
		name := fmt.Sprintf("%T path=%s n=%d", T(0), path, n)
		if rot != 0 {
			t.Errorf("%s: lanes %b still rotating after %d sweeps", name, rot, made)
			continue
		}
		for l := 0; l < L; l++ {
			sym := mat.NewSymDense(n, nil)
			for c := 0; c < n; c++ {
				for row := 0; row <= c; row++ {
					sym.SetSym(row, c, float64(a0[(c*ld+row)*L+l]))
				}
			}
			norm := mat.Norm(sym, 2) + math.SmallestNonzeroFloat64
			var es mat.EigenSym
			if !es.Factorize(sym, false) {
				t.Fatalf("%s lane %d: gonum's EigenSym failed", name, l)
			}
			want := es.Values(nil)
			got := make([]float64, n)
			for j := range got {
				got[j] = float64(a[(j*ld+j)*L+l])
			}
			slices.Sort(got)
			tol := 8 * float64(n) * e * norm
			for j := range got {
				if !(math.Abs(got[j]-want[j]) <= tol) {
					t.Errorf("%s lane %d: eigenvalue %d is %g, gonum %g", name, l, j, got[j], want[j])
					break
				}
			}
			vm := mat.NewDense(n, n, nil)
			for c := 0; c < n; c++ {
				for row := 0; row < n; row++ {
					vm.Set(row, c, float64(v[(c*ld+row)*L+l]))
				}
			}
			var av, vd, vtv mat.Dense
			av.Mul(sym, vm)
			vd.Apply(func(_, c int, x float64) float64 { return x * float64(a[(c*ld+c)*L+l]) }, vm)
			av.Sub(&av, &vd)
			vtv.Mul(vm.T(), vm)
			for j := 0; j < n; j++ {
				vtv.Set(j, j, vtv.At(j, j)-1)
			}
			if res := mat.Norm(&av, 1); !(res <= tol) {
				t.Errorf("%s lane %d: ||A V - V D|| = %g > %g", name, l, res, tol)
			}
			if orth := mat.Norm(&vtv, 1); !(orth <= 16*float64(n)*e) {
				t.Errorf("%s lane %d: ||V^T V - I|| = %g", name, l, orth)
			}
		}
	}
}

// TestJacobiStopsAtTheLimit: a sweep limit too small to converge is
// honoured and reported in rotated; a lane that converged at once (the
// zero and diagonal lanes) is not reported.
func TestJacobiStopsAtTheLimit(t *testing.T) {
	for _, path := range simdpath.Paths() {
		r := rand.New(rand.NewPCG(5, 6))
		a, _ := group[float64](r, 12, 12)
		rot, made := run(path, a, nil, 12, 12, 1)
		if made != 1 || rot&1 == 0 || rot&0b110 != 0 {
			t.Errorf("path=%s: one sweep: made %d, rotated %08b; want 1, lane 0 set, lanes 1 and 2 clear", path, made, rot)
		}
	}
}
