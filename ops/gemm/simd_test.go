package gemm

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// The simd family runs a tile position over a group of matrices at a time
// (simdGroups, simdGroupBytes), and a matrix too big for a group by row
// panels and k slices (simdOne), split over the workers when the batch is
// smaller than they are (splitColumns): batches that split into several
// groups, with a last short one, matrices of several panels and slices
// with short last ones, split or not, op(A) = A^T copied whole or by
// row blocks, padded strides and broadcast
// operands agree with gonum, and no padding between matrices is written.
func TestSIMDGroups(t *testing.T) {
	shapes := []shape{
		{batchlas.NoTrans, batchlas.NoTrans, 70, 70, 70, 7}, // 2 per group: 2+2+2+1
		{batchlas.NoTrans, batchlas.Trans, 100, 9, 130, 5},  // 1 per group
		{batchlas.NoTrans, batchlas.NoTrans, 24, 8, 5, 5000},
		{batchlas.NoTrans, batchlas.Trans, 48, 8, 3, 5000},
		// op(A) = A^T copied transposed for a whole group (m*k up to
		// simdTransElems), deeper than a slice, and too big to copy whole.
		{batchlas.Trans, batchlas.NoTrans, 9, 17, 65, 40},
		{batchlas.Trans, batchlas.NoTrans, 4, 5, 6, 30}, // simdCopySmall
		{batchlas.Trans, batchlas.Trans, 30, 21, 40, 300},
		{batchlas.Trans, batchlas.NoTrans, 5, 9, 700, 50},
		{batchlas.Trans, batchlas.NoTrans, 64, 64, 64, 9},
		{batchlas.Trans, batchlas.NoTrans, 65, 40, 64, 9},
		// Panels of 128 (float64) or 256 rows, slices of 512, cut into
		// column parts on two or more workers.
		{batchlas.NoTrans, batchlas.NoTrans, 300, 130, 1300, 1},
		{batchlas.NoTrans, batchlas.Trans, 200, 70, 600, 2},
		{batchlas.Trans, batchlas.NoTrans, 100, 150, 2200, 1},
	}
	layouts := []layout{{}, {padLD: 3, padStride: 5}, {broadcast: true}}
	ctx := pinned(familySIMD.With())
	for _, s := range shapes {
		for _, l := range layouts {
			t.Run(fmt.Sprintf("%c%c_m%d_n%d_k%d_b%d_%+v", s.ta, s.tb, s.m, s.n, s.k, s.batch, l), func(t *testing.T) {
				simdGroupsAgree[float64](t, ctx, s, l)
				simdGroupsAgree[float32](t, ctx, s, l)
			})
		}
	}
}

func simdGroupsAgree[T batchlas.Float](t *testing.T, ctx context.Context, s shape, l layout) {
	r := testmat.Rand(uint64(s.m*1000 + s.batch))
	a, b, c := operands[T](r, s, l)
	want, bound := oracle(s.ta, s.tb, T(0.75), a, b, T(-1.25), c)
	before := append([]T(nil), c.Data...)
	require.NoError(t, Gemm(ctx, s.ta, s.tb, 0.75, a, b, -1.25, c, nil))
	checkAgainst(t, fmt.Sprintf("%T", T(0)), c, want, bound)
	require.True(t, testmat.Untouched(c, c.Data, before), "wrote C's padding")
}
