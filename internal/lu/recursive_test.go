package lu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
)

// TestSubstituteMatchesRowSweep holds substituteUnitLower to the order of
// updates it documents: the same bits as one Rank1 sweep per row of L
// across all columns, for triangles of 2 to 8 rows, widths that straddle
// its blocks of substituteCols, leading dimensions of a power of two (the
// case the blocks are for) and not, on every path (the AVX-512 assembly a
// column at a time; the AVX2 path and the Go twin run the Go loop), in
// both dtypes. One column holds
// a NaN and one an Inf: they reach only the rows below them, as in the
// scalar sweep.
func TestSubstituteMatchesRowSweep(t *testing.T) {
	substituteMatches[float64](t)
	substituteMatches[float32](t)
}

func substituteMatches[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ld := range []int{64, 67, 512} {
		for _, rows := range []int{2, 3, 5, 7, 8} {
			for _, cols := range []int{1, 7, 8, 9, 16, 17, 40} {
				// The triangle, then the columns right of it: at most
				// 3+8+40 = 51 rows, within every ld above.
				r0, s0 := 3, 3+rows
				n := s0 + cols
				a := make([]T, ld*n)
				for i := range a {
					a[i] = T(r.Float64()*2 - 1)
				}
				if cols > 2 {
					a[(s0+1)*ld+r0+1] = T(math.NaN())
					a[(s0+2)*ld+r0] = T(math.Inf(1))
				}
				want := append([]T(nil), a...)
				for j := r0; j < r0+rows-1; j++ {
					Rank1(want, ld, r0+rows, j, s0, n, want[j*ld+j+1:j*ld+r0+rows])
				}
				what := fmt.Sprintf("%T ld=%d rows=%d cols=%d", T(0), ld, rows, cols)
				sameBitsOnEachPath(t, what, ld, a, want, func(got []T) { substituteUnitLower(got, ld, r0, r0+rows, s0, n) })
			}
		}
	}
}
