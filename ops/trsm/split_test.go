package trsm

import "testing"

// The recursive split cuts a triangle of order t into exactly ceil(t/nb)
// diagonal blocks of order at most nb, whose orders differ by at most one.
func TestSplitMakesNearEqualBlocks(t *testing.T) {
	var leaves func(order, nb int) []int
	leaves = func(order, nb int) []int {
		if order <= nb {
			return []int{order}
		}
		first := splitAt(order, nb)
		if first < 1 || first >= order {
			t.Fatalf("splitAt(%d, %d) = %d: both parts must be non-empty", order, nb, first)
		}
		return append(leaves(first, nb), leaves(order-first, nb)...)
	}
	for nb := 1; nb <= 40; nb++ {
		for order := 1; order <= 600; order++ {
			got := leaves(order, nb)
			if want := (order + nb - 1) / nb; len(got) != want {
				t.Fatalf("order %d, nb %d: %d blocks %v, want %d", order, nb, len(got), got, want)
			}
			lo, hi := got[0], got[0]
			for _, l := range got {
				lo, hi = min(lo, l), max(hi, l)
			}
			if hi > nb || hi-lo > 1 {
				t.Fatalf("order %d, nb %d: blocks %v, want orders at most %d differing by at most one", order, nb, got, nb)
			}
		}
	}
}
