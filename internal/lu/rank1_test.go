package lu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestRank1AssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "rank1_amd64.s") }

// rank1Scalar is Rank1's Go loop on one column at a time: the reference
// both paths must match bit for bit.
func rank1Scalar[T batchlas.Float](a []T, ld, n, j, k0, k1 int, l []T) {
	for k := k0; k < k1; k++ {
		u := a[k*ld+j]
		t := a[k*ld+j+1 : k*ld+n]
		for i, x := range l {
			t[i] -= x * u
		}
	}
}

// sameBitsOnEachPath runs call on a copy of a on every path the machine
// has (simdpath: the assemblies and the Go loop), and fails unless each
// copy then holds want's bits, element for element (what names the case,
// ld gives an element's row and column).
func sameBitsOnEachPath[T batchlas.Float](t *testing.T, what string, ld int, a, want []T, call func(got []T)) {
	t.Helper()
	for _, path := range simdpath.Paths() {
		got := append([]T(nil), a...)
		restore := simdpath.Use(path)
		call(got)
		restore()
		for i := range got {
			if math.Float64bits(float64(got[i])) != math.Float64bits(float64(want[i])) {
				t.Fatalf("%s %s: element %d (row %d, column %d): %v, want %v", what, path, i, i%ld, i/ld, got[i], want[i])
			}
		}
	}
}

// TestRank1Paths runs Rank1 on every path on row counts straddling
// rank1AsmRows, a vector of rows (8 float64 and 16 float32 on AVX-512, 4
// and 8 on AVX2, two of them an iteration) and its masked tail, and
// column counts straddling the assembly's 4: each gives rank1Scalar's
// bits, and nothing outside the
// rows and columns updated changes (NaN around them stays NaN).
func TestRank1Paths(t *testing.T) {
	rank1Paths[float64](t)
	rank1Paths[float32](t)
}

func rank1Paths[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, rows := range []int{1, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 33, 64} {
		for _, cols := range []int{1, 2, 3, 4, 5, 7, 8, 9} {
			// Row j, then rows j+1..n-1 updated, in columns k0..k1-1
			// of an ld-strided matrix with NaN everywhere else.
			j, k0 := 2, 4
			n, k1, ld := j+1+rows, k0+cols, j+1+rows+3
			a := testmat.NaNs[T](ld * (k1 + 2))
			for k := k0; k < k1; k++ {
				for i := j; i < n; i++ {
					a[k*ld+i] = T(r.NormFloat64())
				}
			}
			l := make([]T, rows)
			for i := range l {
				l[i] = T(r.NormFloat64())
			}
			want := append([]T(nil), a...)
			rank1Scalar(want, ld, n, j, k0, k1, l)
			what := fmt.Sprintf("%T rows=%d cols=%d", T(0), rows, cols)
			sameBitsOnEachPath(t, what, ld, a, want, func(got []T) { Rank1(got, ld, n, j, k0, k1, l) })
		}
	}
}

// TestLaswpMatchesOneColumn: Laswp's four columns at a time move every
// element as the one-column loop does, for column counts straddling 4 and
// pivot ranges that start inside the matrix.
func TestLaswpMatchesOneColumn(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, ld = 13, 16
	for _, cols := range []int{1, 3, 4, 5, 8, 9} {
		for _, r0 := range []int{0, 4} {
			r1 := n - 2
			piv := make([]int32, n)
			for j := r0; j < r1; j++ {
				piv[j] = int32(j + r.IntN(n-j)) // LAPACK's pivots: at or below j
			}
			a := make([]float64, ld*(cols+2))
			for i := range a {
				a[i] = float64(i)
			}
			want := append([]float64(nil), a...)
			for k := 1; k < 1+cols; k++ {
				col := want[k*ld : k*ld+n]
				for j := r0; j < r1; j++ {
					p := int(piv[j])
					col[j], col[p] = col[p], col[j]
				}
			}
			Laswp(a, ld, n, 1, 1+cols, r0, r1, piv)
			for i := range a {
				if a[i] != want[i] {
					t.Fatalf("cols=%d r0=%d: element %d (row %d, column %d) %v, want %v", cols, r0, i, i%ld, i/ld, a[i], want[i])
				}
			}
		}
	}
}
