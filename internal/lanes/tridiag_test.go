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

// triOrders straddle the assembly's loop ends (no step, one step, a
// column of one row below the subdiagonal) and the orders syev sends.
var triOrders = []int{1, 2, 3, 4, 5, 8, 9, 16, 17, 32, 33, 64}

func runTridiag[T batchlas.Float](path string, a []T, n, ld int) (d, e []T) {
	defer simdpath.Use(path)()
	L := Lanes[T]()
	d, e = make([]T, n*L), make([]T, max(n-1, 0)*L)
	Tridiag(a, n, ld, d, e, make([]T, n*L))
	return d, e
}

// TestTridiagPathsAgree: the assembly and the Go twin give the same bits
// (the reflectors left in a, d and e), on groups whose lanes include a
// zero matrix and a diagonal one (every reflector the identity).
func TestTridiagPathsAgree(t *testing.T) {
	simdpath.EachAsm(t, func(path string) {
		testTridiagPathsAgree[float64](t, path)
		testTridiagPathsAgree[float32](t, path)
	})
}

// testTridiagPathsAgree runs the assembly of path and the twin on the
// same groups and wants the same bits.
func testTridiagPathsAgree[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range triOrders {
		for _, ld := range lds(n) {
			a, _ := group[T](r, n, ld)
			a2 := slices.Clone(a)
			d1, e1 := runTridiag(path, a, n, ld)
			d2, e2 := runTridiag("go", a2, n, ld)
			name := fmt.Sprintf("%T %s n=%d ld=%d", T(0), path, n, ld)
			sameBitsAs(t, name+": a", a, a2)
			sameBitsAs(t, name+": d", d1, d2)
			sameBitsAs(t, name+": e", e1, e2)
		}
	}
}

// TestTridiagKeepsInvariants checks each lane on each path: an orthogonal
// similarity keeps the trace (the sum of d) and the Frobenius norm
// (sum d^2 + 2 sum e^2), to rounding; the upper triangle is not written.
func TestTridiagKeepsInvariants(t *testing.T) {
	for _, path := range simdpath.Paths() {
		testTridiagInvariants[float64](t, path)
		testTridiagInvariants[float32](t, path)
	}
}

func testTridiagInvariants[T batchlas.Float](t *testing.T, path string) {
	r := rand.New(rand.NewPCG(23, 24))
	L := Lanes[T]()
	for _, n := range triOrders {
		ld := GroupLD(n)
		a, _ := group[T](r, n, ld)
		// Poison the strict upper triangle: it must be neither read nor
		// written.
		for c := 0; c < n; c++ {
			for row := 0; row < c; row++ {
				for l := range L {
					a[(c*ld+row)*L+l] = T(math.NaN())
				}
			}
		}
		orig := slices.Clone(a)
		d, e := runTridiag(path, a, n, ld)
		for l := range L {
			var trace, frob, scale, gotTrace, gotFrob float64
			for c := 0; c < n; c++ {
				for row := c; row < n; row++ {
					v := float64(orig[(c*ld+row)*L+l])
					scale = max(scale, math.Abs(v))
					if row == c {
						trace += v
						frob += v * v
					} else {
						frob += 2 * v * v
					}
				}
			}
			for j := 0; j < n; j++ {
				v := float64(d[j*L+l])
				gotTrace += v
				gotFrob += v * v
			}
			for j := 0; j < n-1; j++ {
				v := float64(e[j*L+l])
				gotFrob += 2 * v * v
			}
			tol := 8 * float64(n) * eps[T]()
			name := fmt.Sprintf("%T path=%s n=%d lane %d", T(0), path, n, l)
			if math.Abs(gotTrace-trace) > tol*scale*float64(n) {
				t.Errorf("%s: trace %g, want %g", name, gotTrace, trace)
			}
			if math.Abs(gotFrob-frob) > tol*frob+1e-300 {
				t.Errorf("%s: Frobenius norm^2 %g, want %g", name, gotFrob, frob)
			}
			for c := 0; c < n; c++ {
				for row := 0; row < c; row++ {
					if v := a[(c*ld+row)*L+l]; v == v {
						t.Fatalf("%s: upper entry (%d, %d) written: %v", name, row, c, v)
					}
				}
			}
		}
	}
}
