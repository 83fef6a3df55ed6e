package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// cholGroup fills a group with symmetric matrices, one triangle (the
// other NaN), per lane: SPD (M*M^T + n*I) by default; lane 1 not positive
// definite at column n/2+1 (its leading block of that order singular);
// lane 2 a NaN on the diagonal; lane 3 the identity; in the second half
// of the group (which the AVX2 kernels take apart), the last lane but one
// not positive definite at column (n-1)/2+1 for even n (a zero on the
// diagonal there) and the last lane at column n, so that for odd n the
// half fails only at its last column.
func cholGroup[T batchlas.Float](r *rand.Rand, lower bool, n, nrhs, ld int) (a, b []T) {
	L := Lanes[T]()
	a, b = make([]T, n*ld*L), make([]T, nrhs*ld*L)
	for i := range b {
		b[i] = T(math.NaN())
	}
	for l := 0; l < L; l++ {
		m := make([]float64, n*n)
		for e := range m {
			m[e] = r.NormFloat64()
		}
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				in := row >= c
				if !lower {
					in = row <= c
				}
				v := math.NaN()
				if in {
					v = 0
					for k := 0; k < n; k++ {
						v += m[row*n+k] * m[c*n+k]
					}
					if row == c {
						v += float64(n)
					}
					switch {
					case l == 1 && row == n/2 && c == n/2:
						v = -1
					case l == 2 && row == c && c == n-1:
						v = math.NaN()
					case l == L-2 && n%2 == 0 && row == (n-1)/2 && c == row, l == L-1 && row == n-1 && c == row:
						v = 0 // a diagonal that is not > 0: a pivot that is not either
					case l == 3:
						v = 0
						if row == c {
							v = 1
						}
					}
				}
				a[(c*ld+row)*L+l] = T(v)
			}
			for row := n; row < ld; row++ {
				a[(c*ld+row)*L+l] = T(math.NaN())
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

func runChol[T batchlas.Float](path string, lower bool, a, b []T, n, nrhs, ld int) []T {
	defer simdpath.Use(path)()
	info := make([]T, Lanes[T]())
	Chol(lower, a, b, n, nrhs, ld, info)
	return info
}

func TestCholPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testCholPathsAgree[float64](t, path)
		testCholPathsAgree[float32](t, path)
	})
}

// testCholPathsAgree runs the assembly of path and the twin on the same
// groups and wants the same bits.
func testCholPathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, lower := range []bool{true, false} {
		for _, n := range luOrders {
			// The solves go four columns at a time, then one: 4 and 9
			// take the first path alone and both.
			for _, nrhs := range []int{0, 1, 3, 4, 9} {
				ld := lds(n)[nrhs%len(lds(n))]
				a, b := cholGroup[T](r, lower, n, nrhs, ld)
				name := fmt.Sprintf("%T %s lower=%v n=%d nrhs=%d ld=%d", T(0), path, lower, n, nrhs, ld)
				cholAgainstTwin(t, path, name, lower, a, b, n, nrhs, ld)
			}
		}
	}
}

// cholAgainstTwin runs the assembly of path on the group a, b (in place)
// and the twin on a copy, wants the same bits of a, b and info, and
// returns the info.
func cholAgainstTwin[T batchlas.Float](t *testing.T, path, name string, lower bool, a, b []T, n, nrhs, ld int) []T {
	t.Helper()
	a2, b2 := slices.Clone(a), slices.Clone(b)
	i1 := runChol(path, lower, a, b, n, nrhs, ld)
	i2 := runChol("go", lower, a2, b2, n, nrhs, ld)
	sameBitsAs(t, name+": a", a, a2)
	sameBitsAs(t, name+": b", b, b2)
	sameBitsAs(t, name+": info", i1, i2)
	return i1
}

// TestCholPathsAgreeWhenFewLanesFail: every lane SPD, or all but the
// last, which is not positive definite at column n. cholGroup fails lanes
// in both halves of the group, so the assembly stops in each and the Go
// twin finishes; here the assembly factors and solves whole halves: both,
// or the first to the end while it stops in the second's last column.
func TestCholPathsAgreeWhenFewLanesFail(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testCholFewFail[float64](t, path)
		testCholFewFail[float32](t, path)
	})
}

func testCholFewFail[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(19, 20))
	L := Lanes[T]()
	// luOrders and orders whose last chunk of eight rows has 3 and 5
	// (the odd orders to 8 run unrolled).
	orders := append(slices.Clone(luOrders), 11, 13, 21)
	for _, lastFails := range []bool{false, true} {
		for _, lower := range []bool{true, false} {
			for _, n := range orders {
				for _, nrhs := range []int{0, 1, 4, 9} {
					ld := lds(n)[nrhs%len(lds(n))]
					a, b := cholGroup[T](r, lower, n, nrhs, ld)
					// Lane 0's SPD matrix in every lane but the last (and
					// in the last too when it is not to fail).
					copies := L - 1
					if !lastFails {
						copies = L
					}
					for v := 0; v < len(a)/L; v++ {
						for l := 1; l < copies; l++ {
							a[v*L+l] = a[v*L]
						}
					}
					name := fmt.Sprintf("%T %s lower=%v n=%d nrhs=%d ld=%d last fails=%v", T(0), path, lower, n, nrhs, ld, lastFails)
					i1 := cholAgainstTwin(t, path, name, lower, a, b, n, nrhs, ld)
					want := 0
					if lastFails {
						want = n
					}
					if int(i1[L-1]) != want || i1[0] != 0 {
						t.Fatalf("%s: info %v, want 0 but %d in the last lane", name, i1, want)
					}
				}
			}
		}
	}
}

// TestCholSolves checks each lane: the info (0, n/2+1 for the lane not
// positive definite, n for the NaN), the other triangle untouched (NaN),
// L*L^T against A and A*X against B in the successful lanes.
func TestCholSolves(t *testing.T) {
	for _, path := range simdpath.Paths() {
		for _, lower := range []bool{true, false} {
			testCholSolves[float64](t, path, lower)
			testCholSolves[float32](t, path, lower)
		}
	}
}

func testCholSolves[T batchlas.Float](t *testing.T, path string, lower bool) {
	r := rand.New(rand.NewPCG(17, 18))
	L, e := Lanes[T](), float64(epsOf[T]())
	for _, n := range luOrders {
		const nrhs = 5
		ld := GroupLD(n)
		a, b := cholGroup[T](r, lower, n, nrhs, ld)
		a0, b0 := slices.Clone(a), slices.Clone(b)
		info := runChol(path, lower, a, b, n, nrhs, ld)
		for l := 0; l < L; l++ {
			name := fmt.Sprintf("%T path=%s lower=%v n=%d lane %d", T(0), path, lower, n, l)
			want := 0
			switch {
			case l == 1 && n > 1:
				want = n/2 + 1
			case l == 2 || (l == 1 && n == 1):
				want = n
			}
			if l == 1 && n == 1 {
				want = 1
			}
			switch {
			case l == L-2 && n%2 == 0:
				want = (n-1)/2 + 1
			case l == L-1:
				want = n
			}
			if int(info[l]) != want {
				t.Fatalf("%s: info %v, want %d", name, info[l], want)
			}
			// el is (i, j) of L, i >= j, from where the triangle keeps it.
			el := func(x []T, i, j int) float64 {
				if !lower {
					i, j = j, i
				}
				return float64(x[(j*ld+i)*L+l])
			}
			for c := 0; c < n; c++ {
				for row := 0; row < n; row++ {
					other := row < c
					if !lower {
						other = row > c
					}
					if v := a[(c*ld+row)*L+l]; other && v == v {
						t.Fatalf("%s: the other triangle's (%d, %d) was written: %v", name, row, c, v)
					}
				}
			}
			if want != 0 {
				continue
			}
			var anorm float64
			for i := 0; i < n; i++ {
				for j := 0; j <= i; j++ {
					var s float64
					for k := 0; k <= j; k++ {
						s += el(a, i, k) * el(a, j, k)
					}
					anorm = max(anorm, math.Abs(el(a0, i, j)))
					if d := math.Abs(s - el(a0, i, j)); !(d <= 4*float64(n)*e*el(a0, i, i)+4*float64(n)*e*anorm) {
						t.Fatalf("%s: (L*L^T)(%d, %d) = %g, A has %g", name, i, j, s, el(a0, i, j))
					}
				}
			}
			for c := 0; c < nrhs; c++ {
				var res, xnorm float64
				for i := 0; i < n; i++ {
					s := -float64(b0[(c*ld+i)*L+l])
					for k := 0; k < n; k++ {
						aik := el(a0, max(i, k), min(i, k))
						s += aik * float64(b[(c*ld+k)*L+l])
					}
					res = max(res, math.Abs(s))
					xnorm = max(xnorm, math.Abs(float64(b[(c*ld+i)*L+l])))
				}
				if !(res <= 8*float64(n*n)*e*anorm*xnorm) {
					t.Fatalf("%s: column %d: residual %g", name, c, res)
				}
			}
		}
	}
}
