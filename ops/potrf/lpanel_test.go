package potrf

import (
	"cmp"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// lpanel's panel width changes what it computes, and the test sees it.
//
// The pivot of column j loses the squares of row j left of the diagonal
// in groups, each group's sum subtracted in one go: the columns left of
// j's panel (the panel's update, one product on the tile), the panel's
// columns left of j's block of eight (lowerPanel's product on the tile),
// and then each column of the block left of j on its own (lowerFactor8's
// Cholesky of the diagonal block). A block of four starts at j (j is a
// multiple of 4 here), so it adds no group. The unblocked kernel is one
// panel of order n.
//
// Matrix j of the test is the identity but for row and column j:
// a(j, 0) = a(j, 1) = 1/2, a(j, j-2) = s and a(j, j) = 1/2 + 2^-20, with s^2
// far below half an ulp of 1/2 (2^-60 in float64, 2^-32 in float32) but
// exact next to 2^-20. Every computed value is then exact but the pivot:
// in one go, 1/2 + s^2 rounds to 1/2 and the pivot is 2^-20, the factor's
// diagonal exactly 2^-10; in two parts, (a(j, j) - 1/2) - s^2 = 2^-20 - s^2
// exactly, and the diagonal is not 2^-10. So the diagonal of matrix j
// differs from 2^-10 exactly when columns 0, 1 and j-2 are not in one
// product's group (splitsSum): a pattern over j = 4, 8, ..., 64 that tells
// the widths 8, 16 and 32 apart and from the unblocked kernel.
func TestLpanelPanelSplitsTheSum(t *testing.T) {
	lpanelSplits[float64](t, 0x1p-30)
	lpanelSplits[float32](t, 0x1p-16)
}

func lpanelSplits[T batchlas.Float](t *testing.T, s float64) {
	const n = 68
	var js []int
	for j := 4; j <= 64; j += 4 {
		js = append(js, j)
	}
	a := testmat.Batch[T](testmat.Rand(15), n, n, len(js), n+1, (n+1)*n+3) // random padding
	for i, j := range js {
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				v := 0.0
				switch {
				case r == c && r == j:
					v = 0.5 + 0x1p-20
				case r == c:
					v = 1
				case r == j && (c == 0 || c == 1), c == j && (r == 0 || r == 1):
					v = 0.5
				case r == j && c == j-2, c == j && r == j-2:
					v = s
				}
				a.Set(i, r, c, T(v))
			}
		}
	}
	merged := T(0x1p-10)
	tested := 0
	for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
		panel := 0 // unblocked: one panel
		switch {
		case c.Is(lpanelFamily):
			panel = c.Field("panel")
		case !c.Is(unblockedFamily):
			continue
		}
		tested++
		for _, uplo := range []batchlas.Uplo{batchlas.Lower, batchlas.Upper} {
			got := testmat.Clone(a)
			require.NoError(t, Potrf(pin(c), uplo, got, nil))
			checkFactor(t, uplo, a, got)
			var split []int
			for i, j := range js {
				d := got.At(i, j, j)
				if d != merged {
					split = append(split, j)
					require.Equal(t, T(math.Sqrt(float64(T(0x1p-20)-T(s*s)))), d, "%s %v j=%d", c, uplo, j)
				}
			}
			var want []int
			for _, j := range js {
				if splitsSum(j, cmp.Or(panel, n), n) {
					want = append(want, j)
				}
			}
			require.Equal(t, want, split, "%s %v %T: the columns whose pivot sum was split by a panel edge", c, uplo, merged)
		}
	}
	require.GreaterOrEqual(t, tested, 2, "unblocked and at least one lpanel width")
}

// splitsSum reports whether the pivot of column j (a multiple of 4) of an
// order-n matrix factored in panels of p columns subtracts the squares of
// its entries in columns 0, 1 and j-2 in more than one go (see
// TestLpanelPanelSplitsTheSum).
func splitsSum(j, p, n int) bool {
	p0 := j / p * p     // j's panel
	end := min(p0+p, n) // and where it ends
	b0 := p0            // j's block: of eight while they fit, then of four
	for b0+8 <= end && b0+8 <= j {
		b0 += 8
	}
	if b0+8 > end {
		b0 = j // a block of four, starting at j
	}
	group := func(c int) int {
		switch {
		case c < p0:
			return -2 // the panel's update
		case c < b0:
			return -1 // the panel's product before the block
		}
		return c // within the block, one column at a time
	}
	g := group(0)
	return g >= 0 || group(1) != g || group(j-2) != g
}
