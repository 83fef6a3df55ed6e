package svd

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// valuesShapes straddle ValuesGroup's loops: orders 1 to 3 (no right
// reflector, one, one with no tail), one vector of lanes and more, tall,
// wide (taken transposed), and past the L2 of a 2-core Zen 3 guest.
var valuesShapes = [][2]int{{1, 1}, {2, 2}, {3, 3}, {1, 4}, {4, 1}, {7, 7}, {8, 8}, {9, 9}, {16, 16}, {17, 17},
	{31, 31}, {32, 32}, {33, 33}, {64, 8}, {8, 64}, {40, 13}, {13, 40}, {64, 64}, {128, 64}, {130, 70}}

// ValuesGroup gives every class's singular values within Bidiag's bound
// of gonum's, on every code path of the lanes moves and rows (the Go
// twins on the shapes up to 33 x 33: lanerows' tests hold them to the
// assembly's bits; -short takes those shapes alone), for full and
// partial groups, matrices spaced apart
// with a leading dimension past their rows; a lane with a NaN or an
// infinity gets info min(m, n)+1 and its values untouched, the others
// are computed.
func TestValuesGroupAgainstGonum(t *testing.T) {
	for _, path := range simdpath.Paths() {
		t.Run(path, func(t *testing.T) {
			defer simdpath.Use(path)()
			maxElems := ValuesGroupMaxElems
			if testing.Short() || (path == simdpath.Go && len(simdpath.Asm()) > 0) {
				maxElems = 33 * 33
			}
			testValuesGroup[float64](t, maxElems)
			testValuesGroup[float32](t, maxElems)
		})
	}
}

func testValuesGroup[T batchlas.Float](t *testing.T, maxElems int) {
	L := lanes.Lanes[T]()
	big, tiny := scales[T]()
	eps := epsOf[T]()
	r := rand.New(rand.NewPCG(7, uint64(L)))
	for _, sh := range valuesShapes {
		m, n := sh[0], sh[1]
		if m*n > ValuesGroupMaxElems {
			t.Fatalf("shape %dx%d past ValuesGroupMaxElems", m, n)
		}
		if m*n > maxElems {
			continue
		}
		k := min(m, n)
		for ci, cl := range classes {
			count := L
			if ci%2 == 1 {
				count = L - 3 // a partial group
			}
			lda, sa, ss := m+2, (m+2)*n+5, k+1
			a := make([]T, count*sa)
			want := make([][]float64, count)
			for l := range count {
				g := rounded[T](cl.make(r, m, n, big, tiny))
				for c := range n {
					for i := range m {
						a[l*sa+c*lda+i] = T(g.at(i, c))
					}
				}
				want[l] = refSV(g)
			}
			bad := -1
			if count > 2 {
				bad = 1 // one lane with a NaN
				a[bad*sa+(n-1)*lda+m-1] = T(math.NaN())
			}
			s := make([]T, count*ss)
			for i := range s {
				s[i] = -1
			}
			info := make([]int32, count)
			ValuesGroup(count, m, n, a, lda, sa, s, ss, make([]T, ValuesGroupWorkSize[T](m, n)), info)
			for l := range count {
				what := fmt.Sprintf("%s %dx%d %s lane %d", typeName[T](), m, n, cl.name, l)
				if l == bad {
					if info[l] != int32(k+1) {
						t.Fatalf("%s: NaN lane info %d, want %d", what, info[l], k+1)
					}
					for _, x := range s[l*ss : (l+1)*ss] {
						if x != -1 {
							t.Fatalf("%s: NaN lane's values written", what)
						}
					}
					continue
				}
				if info[l] != 0 {
					t.Fatalf("%s: info %d", what, info[l])
				}
				got := make([]float64, k)
				for i := range k {
					got[i] = float64(s[l*ss+i])
					if i > 0 && !(got[i] <= got[i-1]) {
						t.Fatalf("%s: values not descending: %v", what, got)
					}
				}
				if s[l*ss+k] != -1 {
					t.Fatalf("%s: wrote past its values", what)
				}
				checkValues(t, what, got, want[l], eps, false)
			}
		}
	}
}

// BenchmarkValuesGroup times a full group of random n x n matrices,
// against Bidiag's values one matrix at a time: ns/op is per group.
func BenchmarkValuesGroup(b *testing.B) {
	for _, n := range []int{8, 32, 64} {
		L := lanes.Lanes[float64]()
		r := rand.New(rand.NewPCG(1, 2))
		a := make([]float64, L*n*n)
		for i := range a {
			a[i] = r.NormFloat64()
		}
		s := make([]float64, L*n)
		info := make([]int32, L)
		c := make([]float64, len(a))
		b.Run(fmt.Sprintf("n=%d/group", n), func(b *testing.B) {
			w := make([]float64, ValuesGroupWorkSize[float64](n, n))
			for b.Loop() {
				ValuesGroup(L, n, n, a, n, n*n, s, n, w, info)
			}
		})
		b.Run(fmt.Sprintf("n=%d/bidiag", n), func(b *testing.B) {
			w := make([]float64, BidiagWorkSize[float64](n, n, None, None))
			for b.Loop() {
				copy(c, a)
				for l := range L {
					Bidiag(n, n, c[l*n*n:], n, s[l*n:], None, None, nil, 1, nil, 1, w)
				}
			}
		})
	}
}
