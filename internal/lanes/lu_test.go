package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// luOrders straddle the loops' ends and the solve's blocked threshold.
var luOrders = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 31, 32, 33}

// luGroup fills a group of n x n matrices and n x nrhs right-hand sides
// with a different kind of matrix per lane: random; singular (column 1
// zero); a NaN; entries near the underflow threshold (pivots above small,
// mostly); the zero matrix; a matrix whose pivots need every row swapped
// (a permuted diagonal-dominant one); entries below the threshold, so
// that every pivot is below small (the divisions, in the second half of
// the group); the rest random.
func luGroup[T batchlas.Float](r *rand.Rand, n, nrhs, ld int) (a, b []T) {
	L := Lanes[T]()
	a, b = make([]T, n*ld*L), make([]T, nrhs*ld*L)
	// The rows between n and ld hold NaN: no kernel may read them into
	// a result.
	for i := range a {
		a[i] = T(math.NaN())
	}
	for i := range b {
		b[i] = T(math.NaN())
	}
	for l := 0; l < L; l++ {
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				var v float64
				switch l {
				case 1:
					if c != 1 {
						v = r.NormFloat64()
					}
				case 2:
					v = r.NormFloat64()
					if c == n/2 && row == n/3 {
						v = math.NaN()
					}
				case 3:
					v = r.NormFloat64() * float64(lu.SafeMin[T]()) * 4
				case 4:
				case 6:
					v = r.NormFloat64() * float64(lu.SafeMin[T]()) / 4
				case 5:
					if row == (c+1)%n {
						v = 10
					} else {
						v = r.NormFloat64() / float64(n)
					}
				default:
					v = r.NormFloat64()
				}
				a[(c*ld+row)*L+l] = T(v)
			}
		}
		for c := 0; c < nrhs; c++ {
			for row := 0; row < n; row++ {
				b[(c*ld+row)*L+l] = T(r.NormFloat64())
			}
		}
	}
	return a, b
}

func runLU[T batchlas.Float](path string, a, b, piv []T, n, nrhs, ld int) {
	defer simdpath.Use(path)()
	LU(a, b, piv, n, nrhs, ld, lu.SafeMin[T]())
}

// lds are the group column strides a test runs at: tight and GroupLD.
func lds(n int) []int {
	if GroupLD(n) == n {
		return []int{n}
	}
	return []int{n, GroupLD(n)}
}

func TestLUPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testLUPathsAgree[float64](t, path)
		testLUPathsAgree[float32](t, path)
	})
}

// testLUPathsAgree runs the assembly of path and the twin on the same
// groups and wants the same bits.
func testLUPathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range luOrders {
		for _, nrhs := range []int{0, 1, 3, 5, 8} {
			ld := lds(n)[nrhs%len(lds(n))]
			a, b := luGroup[T](r, n, nrhs, ld)
			name := fmt.Sprintf("%T %s n=%d nrhs=%d ld=%d", T(0), path, n, nrhs, ld)
			luAgainstTwin(t, path, name, a, b, n, nrhs, ld)
		}
	}
}

// luAgainstTwin runs the assembly of path on the group a, b (in place)
// and the twin on a copy, wants the same bits of a, b and the pivots, and
// returns the pivots.
func luAgainstTwin[T batchlas.Float](t *testing.T, path, name string, a, b []T, n, nrhs, ld int) []T {
	t.Helper()
	piv := make([]T, n*Lanes[T]())
	a2, b2, piv2 := slices.Clone(a), slices.Clone(b), slices.Clone(piv)
	runLU(path, a, b, piv, n, nrhs, ld)
	runLU("go", a2, b2, piv2, n, nrhs, ld)
	sameBitsAs(t, name+": a", a, a2)
	sameBitsAs(t, name+": b", b, b2)
	sameBitsAs(t, name+": piv", piv, piv2)
	return piv
}

// goFuses reports whether this build fuses a product into a following
// addition (GOAMD64=v3 and above may): the per-matrix code then rounds
// differently from the lanes kernel, which never fuses.
func goFuses() bool {
	x, y := 1+0x1p-30, 1-0x1p-30
	return x*y-1 != float64(x*y)-1
}

// TestLUIsGetf2 compares each lane with the per-matrix code gesv's fused
// kernel runs: lu.Getf2 over the whole matrix, lu.DiagInfo, and
// lusolve.Solve on the non-singular ones: the same pivots always, the
// same bits where the arithmetic is the same (no fusing build, and the
// solve's unblocked orders below simd.TriWorth), a small residual
// otherwise.
func TestLUIsGetf2(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testLUIsGetf2[float64](t, path)
		testLUIsGetf2[float32](t, path)
	}
}

func testLUIsGetf2[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(11, 12))
	L := Lanes[T]()
	for _, n := range luOrders {
		for _, nrhs := range []int{1, 3} {
			ld := lds(n)[nrhs%len(lds(n))]
			a, b := luGroup[T](r, n, nrhs, ld)
			a0, b0 := slices.Clone(a), slices.Clone(b)
			piv := make([]T, n*L)
			runLU(path, a, b, piv, n, nrhs, ld)
			exact := !goFuses()
			for l := 0; l < L; l++ {
				name := fmt.Sprintf("%T path=%s n=%d nrhs=%d lane %d", T(0), path, n, nrhs, l)
				// at is element e (column-major, leading dimension n)
				// of lane l of a group of column stride ld.
				at := func(g []T, e int) T { return g[(e/n*ld+e%n)*L+l] }
				m, x := make([]T, n*n), make([]T, n*nrhs)
				for e := range m {
					m[e] = at(a0, e)
				}
				for e := range x {
					x[e] = at(b0, e)
				}
				p := make([]int32, n)
				lu.Getf2(m, n, n, 0, n, 0, n, p, lu.SafeMin[T]())
				for j := range p {
					if T(p[j]) != piv[j*L+l] {
						t.Fatalf("%s: pivot %d is %v, getf2 %d", name, j, piv[j*L+l], p[j])
					}
				}
				for e := range m {
					if got := at(a, e); exact && !sameBits(got, m[e]) {
						t.Fatalf("%s: factor entry %d is %v, getf2 %v", name, e, got, m[e])
					}
				}
				if lu.DiagInfo(m, n, n) != 0 {
					continue
				}
				lusolve.Solve(false, m, n, n, p, x, n, nrhs)
				if exact && !simd.TriWorth(n) {
					for e := range x {
						if got := at(b, e); !sameBits(got, x[e]) {
							t.Fatalf("%s: solution entry %d is %v, getf2 and solve %v", name, e, got, x[e])
						}
					}
					continue
				}
				// Otherwise the residual: ||A*x - b|| <= 8*n*n*eps*||A||*||x||
				// per column, in float64, max norms; unless the solution
				// overflows (the lane of entries near underflow), which
				// the bit-for-bit orders cover.
				if slices.ContainsFunc(x, func(v T) bool { return math.IsInf(float64(v), 0) || v != v }) {
					continue
				}
				for c := 0; c < nrhs; c++ {
					var res, anorm, xnorm float64
					for row := 0; row < n; row++ {
						sum := -float64(at(b0, c*n+row))
						for k := 0; k < n; k++ {
							av := float64(at(a0, k*n+row))
							sum += av * float64(at(b, c*n+k))
							anorm = max(anorm, math.Abs(av))
						}
						res = max(res, math.Abs(sum))
						xnorm = max(xnorm, math.Abs(float64(at(b, c*n+row))))
					}
					if !(res <= 8*float64(n*n)*float64(epsOf[T]())*anorm*xnorm) {
						t.Fatalf("%s: column %d: residual %g, ||A|| %g, ||x|| %g", name, c, res, anorm, xnorm)
					}
				}
			}
		}
	}
}

func sameBits[T batchlas.Float](x, y T) bool {
	return math.Float64bits(float64(x)) == math.Float64bits(float64(y)) || (x != x && y != y)
}

func epsOf[T batchlas.Float]() T {
	if Lanes[T]() == 16 {
		return 0x1p-24
	}
	return 0x1p-53
}

// TestLUPathsAgreeOnSpreadPivots runs groups whose lanes pivot to
// different rows at each step (lane l's matrix dominant on the shifted
// diagonal row c+1+l of column c), so that the AVX2 kernel's row swaps
// walk a half's rows in more than one pass of four (float32: eight lanes
// a half), and wants the Go twin's bits. It checks that the groups did
// spread the pivots that far, so that it cannot pass without reaching
// those passes.
func TestLUPathsAgreeOnSpreadPivots(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		luSpreadPivots[float64](t, path)
		luSpreadPivots[float32](t, path)
	})
}

func luSpreadPivots[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(11, 12))
	L := Lanes[T]()
	H := L / 2 // the lanes of a half group (the AVX2 kernels' 32 bytes)
	for _, n := range []int{9, 13, 17, 32, 33} {
		ld, nrhs := GroupLD(n), 3
		a, b := make([]T, n*ld*L), make([]T, nrhs*ld*L)
		for l := 0; l < L; l++ {
			for c := 0; c < n; c++ {
				for row := 0; row < n; row++ {
					v := r.NormFloat64() / float64(n)
					if row == (c+1+l)%n {
						v = 10
					}
					a[(c*ld+row)*L+l] = T(v)
				}
			}
		}
		for i := range b {
			b[i] = T(r.NormFloat64())
		}
		name := fmt.Sprintf("%T %s n=%d", T(0), path, n)
		piv := luAgainstTwin(t, path, name, a, b, n, nrhs, ld)
		// The most rows below j that one half's lanes pivot to at once.
		most := 0
		for j := 0; j < n; j++ {
			for h := 0; h < L/H; h++ {
				rows := map[T]bool{}
				for l := h * H; l < (h+1)*H; l++ {
					if p := piv[j*L+l]; p != T(j) {
						rows[p] = true
					}
				}
				most = max(most, len(rows))
			}
		}
		if want := min(H, n-1); most < want {
			t.Fatalf("%s: at most %d pivot rows a half at one step, want %d (the swaps' passes not reached)", name, most, want)
		}
	}
}
