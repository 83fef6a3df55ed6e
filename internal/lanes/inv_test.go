package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lu"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// invGroup is a group to invert: luGroup's (a lane with pivots below
// small, so the small orders divide) or, when plain, random matrices with
// a heavy diagonal (so they take the reciprocals).
func invGroup[T batchlas.Float](r *rand.Rand, n, ld int, plain bool) []T {
	if !plain {
		a, _ := luGroup[T](r, n, 0, ld)
		return a
	}
	L := Lanes[T]()
	a := make([]T, n*ld*L)
	for i := range a {
		a[i] = T(math.NaN()) // the rows between n and ld
	}
	for l := range L {
		for c := range n {
			for row := range n {
				v := r.NormFloat64()
				if row == c {
					v += float64(n) * math.Copysign(1, v)
				}
				a[(c*ld+row)*L+l] = T(v)
			}
		}
	}
	return a
}

// sentinel marks x's entries no call may write: the rows between n and
// ld.
const sentinel = 12345

func runInverse[T batchlas.Float](path string, a []T, n, ld int) (x, piv, info []T) {
	defer simdpath.Use(path)()
	L := Lanes[T]()
	x, piv, info = make([]T, n*ld*L), make([]T, n*L), make([]T, L)
	for i := range x {
		x[i] = sentinel
	}
	for i := range info {
		info[i] = -1
	}
	Inverse(a, x, piv, n, ld, lu.SafeMin[T](), info)
	return x, piv, info
}

// TestInversePathsAgree: the assembly and its Go twin give the same bits
// on both of the small orders' solves and on the orders past them, NaN
// for NaN in x (a fused multiply-add of a NaN keeps its sign in the
// assembly, Go's negation flips it).
func TestInversePathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testInversePathsAgree[float64](t, path)
		testInversePathsAgree[float32](t, path)
	})
}

// testInversePathsAgree runs the assembly of path and the twin on the
// same groups and wants the same bits.
func testInversePathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range luOrders {
		for _, ld := range lds(n) {
			for _, plain := range []bool{false, true} {
				a := invGroup[T](r, n, ld, plain)
				a2 := slices.Clone(a)
				x, piv, info := runInverse(path, a, n, ld)
				x2, piv2, info2 := runInverse("go", a2, n, ld)
				name := fmt.Sprintf("%T %s n=%d ld=%d plain=%v", T(0), path, n, ld, plain)
				sameBitsAs(t, name+": a", a, a2)
				sameBitsOrNaN(t, name+": x", x, x2)
				sameBitsAs(t, name+": piv", piv, piv2)
				sameBitsAs(t, name+": info", info, info2)
			}
		}
	}
}

// TestInverseIsGetf2 checks each lane against the per-matrix getf2: the
// same pivots, factors bit for bit (in a build that does not fuse), info
// lu.DiagInfo's; a non-singular lane's x is its inverse, ||A*X - I|| <=
// 8*n*n*eps*||A||*||X|| (max norms); x's rows between n and ld are
// untouched.
func TestInverseIsGetf2(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testInverseIsGetf2[float64](t, path)
		testInverseIsGetf2[float32](t, path)
	}
}

func testInverseIsGetf2[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(15, 16))
	L := Lanes[T]()
	for _, n := range append([]int{0}, luOrders...) {
		for _, ld := range lds(max(n, 1)) {
			for _, plain := range []bool{false, true} {
				a0 := invGroup[T](r, n, ld, plain)
				a := slices.Clone(a0)
				x, piv, info := runInverse(path, a, n, ld)
				for l := range L {
					name := fmt.Sprintf("%T path=%s n=%d ld=%d plain=%v lane %d", T(0), path, n, ld, plain, l)
					at := func(g []T, row, c int) T { return g[(c*ld+row)*L+l] }
					m := make([]T, n*n)
					for e := range m {
						m[e] = at(a0, e%n, e/n)
					}
					p := make([]int32, n)
					lu.Getf2(m, n, n, 0, n, 0, n, p, lu.SafeMin[T]())
					for j := range p {
						if T(p[j]) != piv[j*L+l] {
							t.Fatalf("%s: pivot %d is %v, getf2 %d", name, j, piv[j*L+l], p[j])
						}
					}
					for e := range m {
						if got := at(a, e%n, e/n); !goFuses() && !sameBits(got, m[e]) {
							t.Fatalf("%s: factor entry %d is %v, getf2 %v", name, e, got, m[e])
						}
					}
					if want := T(lu.DiagInfo(m, n, n)); info[l] != want {
						t.Fatalf("%s: info %v, want %v", name, info[l], want)
					}
					for c := range n {
						for row := n; row < ld; row++ {
							if v := at(x, row, c); v != sentinel {
								t.Fatalf("%s: x's padding row %d of column %d written: %v", name, row, c, v)
							}
						}
					}
					if info[l] != 0 {
						continue
					}
					var anorm, xnorm, res float64
					for c := range n {
						for row := range n {
							anorm = max(anorm, math.Abs(float64(at(a0, row, c))))
							xnorm = max(xnorm, math.Abs(float64(at(x, row, c))))
						}
					}
					if math.IsInf(xnorm, 0) || l == 6 && math.IsNaN(xnorm) {
						continue // the lanes of entries near and below underflow overflow
					}
					for c := range n {
						for row := range n {
							sum := 0.0
							if row == c {
								sum = -1
							}
							for k := range n {
								sum += float64(at(a0, row, k)) * float64(at(x, k, c))
							}
							res = max(res, math.Abs(sum))
						}
					}
					if !(res <= 8*float64(n*n)*float64(epsOf[T]())*anorm*xnorm) {
						t.Fatalf("%s: ||A*X - I|| %g, ||A|| %g, ||X|| %g", name, res, anorm, xnorm)
					}
				}
			}
		}
	}
}

// TestInverseLanesIndependent: a lane's inverse depends on its own matrix
// only: putting a matrix with a pivot below small (which divides where
// the others multiply by reciprocals) in one lane leaves every other
// lane's bits as they were.
func TestInverseLanesIndependent(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testInverseLanesIndependent[float64](t, path)
		testInverseLanesIndependent[float32](t, path)
	}
}

func testInverseLanesIndependent[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(17, 18))
	L := Lanes[T]()
	for _, n := range []int{2, 3, 5, 8} {
		ld := GroupLD(n)
		a := invGroup[T](r, n, ld, true)
		tiny := slices.Clone(a)
		for c := range n {
			for row := range n {
				tiny[(c*ld+row)*L+3] *= lu.SafeMin[T]() / 4
			}
		}
		x, _, _ := runInverse(path, a, n, ld)
		xt, _, info := runInverse(path, tiny, n, ld)
		if info[3] != 0 {
			t.Fatalf("%T n=%d: the scaled lane's info is %v", T(0), n, info[3])
		}
		for i := range x {
			if i%L != 3 && !sameBits(x[i], xt[i]) {
				t.Fatalf("%T path=%s n=%d: entry %d of lane %d is %v beside a tiny lane, %v without", T(0), path, n, i/L, i%L, xt[i], x[i])
			}
		}
	}
}

// sameBitsOrNaN is sameBitsAs with any NaN the same as any other.
func sameBitsOrNaN[T batchlas.Float](t *testing.T, what string, asm, twin []T) {
	t.Helper()
	for i := range asm {
		if !sameBits(asm[i], twin[i]) {
			t.Errorf("%s[%d]: assembly %v, twin %v", what, i, asm[i], twin[i])
			return
		}
	}
}
