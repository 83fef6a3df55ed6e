package gemm

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestBroadcastEqualsCopies: A, B or both made by batchlas.Broadcast give,
// bit for bit, the C that explicit copies of their matrix give, for every
// native candidate (vendor: within the oracle's bound), on shapes around the families' block edges and over counts 0
// and 1 too.
func TestBroadcastEqualsCopies(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			broadcastEqualsCopies[float32](t, c)
		} else {
			broadcastEqualsCopies[float64](t, c)
		}
	})
}

func broadcastEqualsCopies[T batchlas.Float](t *testing.T, c sel.Choice) {
	r := testmat.Rand(17)
	ctx := pinned(c)
	// copies is count copies of the first matrix of x, with x's leading
	// dimension: a kernel's arithmetic may depend on the layout (gonum's
	// float32 kernels do), and only the broadcast is under test.
	copies := func(x batchlas.Batch[T], count int) batchlas.Batch[T] {
		out := testmat.Batch[T](r, x.Rows, x.Cols, count, x.LD, 0)
		for i := range count {
			require.NoError(t, out.CopyMatrixIn(i, x.Data, x.LD))
		}
		return out
	}
	for _, mnk := range [][3]int{{1, 1, 1}, {6, 5, 4}, {17, 15, 16}, {65, 63, 64}, {5, 3, 257}} {
		for _, count := range []int{0, 1, 4} {
			for _, which := range []string{"a", "b", "ab"} {
				s := shape{batchlas.Trans, batchlas.NoTrans, mnk[0], mnk[1], mnk[2], count}
				if !canRun(c, keyOf(s), batchlas.Host()) {
					continue
				}
				what := fmt.Sprintf("%s m=%d n=%d k=%d count=%d broadcast %s", c, s.m, s.n, s.k, count, which)
				// One padded matrix each, and a batch of count for the
				// operand that is not broadcast.
				a1, b1, _ := operands[T](r, shape{s.ta, s.tb, s.m, s.n, s.k, 1}, layout{padLD: 2})
				a, b, c0 := operands[T](r, s, layout{})
				ca, cb := a, b
				if which != "b" {
					a, ca = batchlas.Broadcast(a1, count), copies(a1, count)
				}
				if which != "a" {
					b, cb = batchlas.Broadcast(b1, count), copies(b1, count)
				}
				got, want := testmat.Clone(c0), testmat.Clone(c0)
				require.NoError(t, Gemm(ctx, s.ta, s.tb, 1.25, a, b, -0.5, got, nil), what)
				require.NoError(t, Gemm(ctx, s.ta, s.tb, 1.25, ca, cb, -0.5, want, nil), what)
				if c.Vendor() {
					// gonum's float32 kernels round differently with the
					// alignment of the operands in memory, which differs
					// between the copies: within the oracle's bound.
					w, bound := oracle(s.ta, s.tb, 1.25, ca, cb, -0.5, c0)
					checkAgainst(t, what, got, w, bound)
					continue
				}
				require.Equal(t, -1, testmat.SameMatrices(got, want, 0, count), "%s: a matrix differs from the product of explicit copies", what)
			}
		}
	}
}

// TestStrideZeroLiteralRefused: a literal with Stride 0 over several
// matrices (a forgotten Stride) is refused for a and for b, which gemm only
// reads, with an *ArgError that says how to broadcast, and a broadcast C,
// which gemm writes, is refused, from Gemm under every pin and from
// BufferSize. Nothing is written.
func TestStrideZeroLiteralRefused(t *testing.T) {
	const m, n, k, count = 3, 4, 2, 5
	r := testmat.Rand(23)
	one := func(rows, cols int) batchlas.Batch[float64] { return testmat.Batch[float64](r, rows, cols, 1, 0, 0) }
	literal := func(x batchlas.Batch[float64]) batchlas.Batch[float64] {
		return batchlas.Batch[float64]{Data: x.Data, Rows: x.Rows, Cols: x.Cols, LD: x.LD, Count: count}
	}
	a, b := testmat.Batch[float64](r, m, k, count, 0, 0), testmat.Batch[float64](r, k, n, count, 0, 0)
	c := testmat.Batch[float64](r, m, n, count, 0, 0)
	before := testmat.Clone(c)
	cases := []struct {
		name, arg, want string
		a, b, c         batchlas.Batch[float64]
	}{
		{"literal a", "a", "batchlas.Broadcast(m, 5)", literal(one(m, k)), b, c},
		{"literal b", "b", "batchlas.Broadcast(m, 5)", a, literal(one(k, n)), c},
		{"broadcast c", "c", "c is a broadcast", a, b, batchlas.Broadcast(c, count)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			check := func(what string, err error) {
				t.Helper()
				var ae *batchlas.ArgError
				require.ErrorAs(t, err, &ae, what)
				require.Equal(t, "gemm", ae.Op, what)
				require.Equal(t, tc.arg, ae.Arg, what)
				require.Contains(t, err.Error(), tc.want, what)
			}
			forEachCandidate(t, func(t *testing.T, dt sel.DType, ch sel.Choice) {
				if dt == sel.Float64 {
					check(ch.String(), Gemm(pinned(ch), batchlas.NoTrans, batchlas.NoTrans, 1, tc.a, tc.b, 1, tc.c, nil))
				}
			})
			_, err := BufferSize(t.Context(), batchlas.NoTrans, batchlas.NoTrans, tc.a, tc.b, tc.c)
			check("BufferSize", err)
			require.Equal(t, before.Data, c.Data, "nothing is written")
		})
	}
}
