package trsm

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// blocked's nb decides where the diagonal blocks start, and the test sees
// it in the results.
//
// Matrix i of the test solves L*x = b with L the identity but for
// L(i+2, i) = L(i+2, i+1) = -h (h = half an ulp of 1) and b = 1 in rows i,
// i+1 and i+2, 0 elsewhere: x(i) = x(i+1) = 1 and x(i+2) = 1 + h + h,
// rounded as the kernel sums it. Substitution adds the two terms to 1 one
// at a time, and 1 + h rounds to 1, twice; so does a coupling gemm that
// holds only one of them. A gemm update that holds both sums them first
// (every native gemm kernel accumulates op(A)*op(B) before adding it to
// C; the test pins gemm's direct kernel) and 1 + 2h is a float. So
// x(i+2) = 1 + 2h exactly when a diagonal block starts at row i+2 (blocks
// hold at least two rows here), and the set of such rows, over i, is the
// set of block starts that splitAt's recursion makes for this nb; the
// direct kernel has none.
func TestBlockedNBSetsTheBlocks(t *testing.T) {
	nbSetsBlocks[float64](t)
	nbSetsBlocks[float32](t)
}

func nbSetsBlocks[T batchlas.Float](t *testing.T) {
	const order = 100
	h := T(testmat.Eps[T]())
	count := order - 2
	a := testmat.Batch[T](testmat.Rand(16), order, order, count, order+1, (order+1)*order+1)
	b := testmat.Batch[T](testmat.Rand(17), order, 1, count, order+2, order+5)
	for i := 0; i < count; i++ {
		for c := 0; c < order; c++ {
			for r := c; r < order; r++ { // the lower triangle; the rest stays random
				v := T(0)
				switch {
				case r == c:
					v = 1
				case r == i+2 && (c == i || c == i+1):
					v = -h
				}
				a.Set(i, r, c, v)
			}
		}
		for r := 0; r < order; r++ {
			v := T(0)
			if r >= i && r <= i+2 {
				v = 1
			}
			b.Set(i, r, 0, v)
		}
	}
	tested := 0
	for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
		var want []int
		switch {
		case c.Is(blocked):
			for _, s := range blockStarts(0, order, c.Field("nb")) {
				if s >= 2 {
					want = append(want, s)
				}
			}
		case !c.Is(direct):
			continue // vendor: gonum's own order; vector: blocks of a vector of rows, a lane broadcast per row
		}
		tested++
		ctx := sel.WithPin(sel.WithPin(context.Background(), "gemm", "direct"), opName, c.String())
		x := testmat.Clone(b)
		require.NoError(t, Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, x, nil))
		var got []int
		for i := 0; i < count; i++ {
			for r := 0; r < order; r++ {
				v, w := x.At(i, r, 0), T(0)
				switch {
				case r == i || r == i+1:
					w = 1
				case r == i+2:
					w = 1
					if v == 1+2*h {
						got = append(got, r)
						w = v
					}
				}
				require.Equal(t, w, v, "%s matrix %d row %d", c, i, r)
			}
		}
		require.Equal(t, want, got, "%s %T: the rows where a diagonal block starts", c, h)
	}
	require.GreaterOrEqual(t, tested, 2, "direct and at least one blocked nb")
}

// blockStarts is the first rows of the diagonal blocks blocked cuts
// [k0, k1) into with leaf size nb, in order.
func blockStarts(k0, k1, nb int) []int {
	if k1-k0 <= nb {
		return []int{k0}
	}
	mid := k0 + splitAt(k1-k0, nb)
	return slices.Concat(blockStarts(k0, mid, nb), blockStarts(mid, k1, nb))
}
