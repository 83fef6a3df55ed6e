package lu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSubstituteMatchesRowSweep holds substituteUnitLower to the order of
// updates it documents: the same bits as one Rank1 sweep per row of L
// across all columns, for widths that straddle its blocks of
// substituteCols and for leading dimensions of a power of two (the case
// the blocks are for) and not.
func TestSubstituteMatchesRowSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ld := range []int{64, 67, 512} {
		for _, rows := range []int{2, 5, 8} {
			for _, cols := range []int{1, 7, 8, 9, 16, 17, 40} {
				t.Run(fmt.Sprintf("ld=%d/rows=%d/cols=%d", ld, rows, cols), func(t *testing.T) {
					// The triangle, then the columns right of it: at most
					// 3+8+40 = 51 rows, within every ld above.
					r0, s0 := 3, 3+rows
					n := s0 + cols
					a := make([]float64, ld*n)
					for i := range a {
						a[i] = r.Float64()*2 - 1
					}
					want := append([]float64(nil), a...)
					for j := r0; j < r0+rows-1; j++ {
						Rank1(want, ld, r0+rows, j, s0, n, want[j*ld+j+1:j*ld+r0+rows])
					}
					substituteUnitLower(a, ld, r0, r0+rows, s0, n)
					for i := range a {
						if math.Float64bits(a[i]) != math.Float64bits(want[i]) {
							t.Fatalf("element %d (row %d, column %d): %v, want %v", i, i%ld, i/ld, a[i], want[i])
						}
					}
				})
			}
		}
	}
}
