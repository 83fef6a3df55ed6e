package gemm

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// swappedShapes straddle swappedTiles' limits: every transpose case, the
// small buffer (swappedElems up to simdCopySmall) and the big one, a
// buffer filled exactly (8*120 + 120*128 = 16320, then 16384 with the
// last column) and one element too many (which runs simd), k deeper than
// a slice, a C taller than wide, an op(A) = A^T that simd copies a row
// block at a time, and batches of several groups (swappedGroup), the last
// one partial.
var swappedShapes = []shape{
	{batchlas.NoTrans, batchlas.NoTrans, 8, 64, 64, 50},
	{batchlas.NoTrans, batchlas.NoTrans, 2, 3, 4, 30},
	{batchlas.NoTrans, batchlas.NoTrans, 8, 128, 120, 3},
	{batchlas.NoTrans, batchlas.NoTrans, 1, 128, 127, 3},
	{batchlas.NoTrans, batchlas.NoTrans, 1, 129, 127, 3},
	{batchlas.NoTrans, batchlas.Trans, 3, 200, 700, 2},
	{batchlas.Trans, batchlas.NoTrans, 5, 40, 33, 20},
	{batchlas.Trans, batchlas.Trans, 7, 9, 10, 100},
	{batchlas.NoTrans, batchlas.NoTrans, 30, 17, 600, 4},
	// op(A) = A^T too big for simd to copy whole (simdBlocksCopied).
	{batchlas.Trans, batchlas.Trans, 200, 50, 100, 2},
	// Several groups of matrices.
	{batchlas.NoTrans, batchlas.NoTrans, 4, 16, 16, 100},
	{batchlas.Trans, batchlas.Trans, 3, 20, 12, 77},
	{batchlas.NoTrans, batchlas.Trans, 5, 24, 40, 61},
}

// TestSwapped: the swapped family agrees with gonum on swappedShapes with
// tight, padded and broadcast operands, and leaves C's padding alone.
func TestSwapped(t *testing.T) {
	ctx := pinned(familySwapped.With())
	for _, s := range swappedShapes {
		for _, l := range []layout{{}, {padLD: 3, padStride: 5}, {broadcast: true}} {
			t.Run(fmt.Sprintf("%c%c_m%d_n%d_k%d_b%d_%+v", s.ta, s.tb, s.m, s.n, s.k, s.batch, l), func(t *testing.T) {
				simdGroupsAgree[float64](t, ctx, s, l)
				simdGroupsAgree[float32](t, ctx, s, l)
			})
		}
	}
}

// TestSwappedEqualsSIMD: swapped sums every element's products in simd's
// order, so the two give the same bits (its doc says so, and a shape too
// big for its buffer runs simd on that promise).
func TestSwappedEqualsSIMD(t *testing.T) {
	for _, s := range swappedShapes {
		t.Run(fmt.Sprintf("%c%c_m%d_n%d_k%d", s.ta, s.tb, s.m, s.n, s.k), func(t *testing.T) {
			swappedEqualsSIMD[float64](t, s)
			swappedEqualsSIMD[float32](t, s)
		})
	}
}

func swappedEqualsSIMD[T batchlas.Float](t *testing.T, s shape) {
	r := testmat.Rand(uint64(7*s.n + s.k))
	a, b, c := operands[T](r, s, layout{padLD: 2})
	got, want := testmat.Clone(c), testmat.Clone(c)
	require.NoError(t, Gemm(pinned(familySwapped.With()), s.ta, s.tb, 1.5, a, b, -0.5, got, nil))
	require.NoError(t, Gemm(pinned(familySIMD.With()), s.ta, s.tb, 1.5, a, b, -0.5, want, nil))
	requireSameBits(t, want.Data, got.Data, "%T %v", T(0), s)
}
