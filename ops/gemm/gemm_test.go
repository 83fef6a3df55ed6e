package gemm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// straddle are (m, n, k) triples around the block edges of every family:
// the 4x2 tiles (and small's shifted edge tiles: m < 4, n < 2 and every
// m mod 4, n mod 2), kc 128/256, packedNC 512 and the host's mc (at most
// packedMaxMC = 512; TestPackedMCFollowsTheDevice runs other mc).
var straddle = [][3]int{
	{1, 1, 1}, {2, 3, 1}, {3, 2, 7}, {6, 5, 4}, {4, 1, 5}, {10, 6, 2}, {7, 8, 9}, {8, 8, 8}, {9, 9, 9}, {4, 2, 3},
	{15, 16, 17}, {16, 16, 16}, {17, 15, 16}, {16, 17, 16}, {16, 16, 17},
	{31, 33, 32}, {32, 31, 33}, {63, 64, 65}, {65, 63, 64},
	{127, 9, 129}, {129, 7, 3}, {5, 3, 257}, {257, 3, 5}, {3, 513, 2},
}

// checkCandidate runs one candidate of dtype T on every straddling shape and
// transpose case, in the given layout, against the gonum oracle, and checks
// that C's padding is untouched. Shapes the candidate cannot run are skipped
// (TestCanRunEqualsLaunch covers them).
func checkCandidate[T batchlas.Float](t *testing.T, c sel.Choice, l layout, alpha, beta T, batchOf func(m, n, k int) int) {
	r := testmat.Rand(uint64(len(c.String())))
	ctx := pinned(c)
	for _, mnk := range straddle {
		for _, ta := range transCases {
			for _, tb := range transCases {
				s := shape{ta, tb, mnk[0], mnk[1], mnk[2], batchOf(mnk[0], mnk[1], mnk[2])}
				if !canRun(c, keyOf(s), batchlas.Host()) {
					continue
				}
				a, b, cc := operands[T](r, s, l)
				want, bound := oracle(ta, tb, alpha, a, b, beta, cc)
				before := append([]T(nil), cc.Data...)
				require.NoError(t, Gemm(ctx, ta, tb, alpha, a, b, beta, cc, nil))
				what := fmt.Sprintf("%s %c%c m=%d n=%d k=%d batch=%d", c, ta, tb, s.m, s.n, s.k, s.batch)
				checkAgainst(t, what, cc, want, bound)
				require.True(t, testmat.Untouched(cc, cc.Data, before), "%s: wrote C's padding", what)
			}
		}
	}
}

// fewForBig keeps the test fast: batch 3 for small problems, 1 for big.
func fewForBig(m, n, k int) int {
	if m*n*k > 1<<14 {
		return 1
	}
	return 3
}

func TestRandomTight(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			checkCandidate[float32](t, c, layout{}, 1.5, -0.5, fewForBig)
		} else {
			checkCandidate[float64](t, c, layout{}, 1.5, -0.5, fewForBig)
		}
	})
}

func TestPaddedLDAndStride(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		l := layout{padLD: 3, padStride: 5}
		if dt == sel.Float32 {
			checkCandidate[float32](t, c, l, -1, 2, fewForBig)
		} else {
			checkCandidate[float64](t, c, l, -1, 2, fewForBig)
		}
	})
}

// TestBroadcastAB: A and B made by batchlas.Broadcast serve every matrix
// of C.
func TestBroadcastAB(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		l := layout{padLD: 1, broadcast: true}
		if dt == sel.Float32 {
			checkCandidate[float32](t, c, l, 0.75, 1, fewForBig)
		} else {
			checkCandidate[float64](t, c, l, 0.75, 1, fewForBig)
		}
	})
}

// TestBetaZeroIgnoresC: with beta == 0, NaN in C must not reach the result.
func TestBetaZeroIgnoresC(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			betaZero[float32](t, c)
		} else {
			betaZero[float64](t, c)
		}
	})
}

func betaZero[T batchlas.Float](t *testing.T, c sel.Choice) {
	r := testmat.Rand(3)
	for _, mnk := range straddle[:12] {
		s := shape{batchlas.NoTrans, batchlas.Trans, mnk[0], mnk[1], mnk[2], 2}
		if !canRun(c, keyOf(s), batchlas.Host()) {
			continue
		}
		a, b, cc := operands[T](r, s, layout{})
		for i := range cc.Data {
			cc.Data[i] = T(math.NaN())
		}
		want, bound := oracle(s.ta, s.tb, 2, a, b, 0, cc)
		require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 2, a, b, 0, cc, nil))
		checkAgainst(t, fmt.Sprintf("%s beta=0 %v", c, mnk), cc, want, bound)
	}
}

// TestLargeBatch runs 1000+ tiny matrices per candidate.
func TestLargeBatch(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		batch := func(m, n, k int) int { return 1031 }
		r := testmat.Rand(5)
		for _, mnk := range [][3]int{{3, 3, 3}, {8, 8, 8}, {5, 2, 9}} {
			for _, ta := range transCases {
				s := shape{ta, batchlas.NoTrans, mnk[0], mnk[1], mnk[2], batch(0, 0, 0)}
				if dt == sel.Float32 {
					a, b, cc := operands[float32](r, s, layout{padStride: 1})
					want, bound := oracle(s.ta, s.tb, 1, a, b, 1, cc)
					require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 1, a, b, 1, cc, nil))
					checkAgainst(t, fmt.Sprint(c, mnk), cc, want, bound)
				} else {
					a, b, cc := operands[float64](r, s, layout{padStride: 1})
					want, bound := oracle(s.ta, s.tb, 1, a, b, 1, cc)
					require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 1, a, b, 1, cc, nil))
					checkAgainst(t, fmt.Sprint(c, mnk), cc, want, bound)
				}
			}
		}
	})
}

// TestStructured: identity and graded operands, where the answer is exact
// or its error is relative to entries of very different magnitude.
func TestStructured(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		r := testmat.Rand(11)
		for _, n := range []int{1, 7, 16, 33} {
			s := shape{batchlas.NoTrans, batchlas.NoTrans, n, n, n, 2}
			if !canRun(c, keyOf(s), batchlas.Host()) {
				continue
			}
			a, b, cc := operands[float64](r, s, layout{})
			// A = I: C = alpha*B + beta*C, exact for alpha = 2, beta = 0.
			clear(a.Data)
			for i := 0; i < s.batch; i++ {
				for d := 0; d < n; d++ {
					a.Set(i, d, d, 1)
				}
			}
			require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 2, a, b, 0, cc, nil))
			for i := 0; i < s.batch; i++ {
				for col := 0; col < n; col++ {
					for row := 0; row < n; row++ {
						require.Equal(t, 2*b.At(i, row, col), cc.At(i, row, col), "%s identity n=%d", c, n)
					}
				}
			}
			// Graded B: column j scaled by 2^(-8j), so columns of C span
			// many orders of magnitude; the oracle bound is per element.
			for i := 0; i < s.batch; i++ {
				for col := 0; col < n; col++ {
					for row := 0; row < n; row++ {
						a.Set(i, row, col, 2*r.Float64()-1)
						b.Set(i, row, col, b.At(i, row, col)*math.Ldexp(1, -8*col))
					}
				}
			}
			want, bound := oracle(s.ta, s.tb, 1, a, b, 1, cc)
			require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 1, a, b, 1, cc, nil))
			checkAgainst(t, fmt.Sprintf("%s graded n=%d", c, n), cc, want, bound)
		}
	})
}

// TestNaNInfPropagate: IEEE rules per element. A NaN in row i of op(A)
// makes row i of C NaN; an Inf in op(A) times a zero of op(B) is NaN.
func TestNaNInfPropagate(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		r := testmat.Rand(13)
		for _, n := range []int{2, 5, 9} {
			s := shape{batchlas.NoTrans, batchlas.NoTrans, n, n, n, 1}
			if !canRun(c, keyOf(s), batchlas.Host()) {
				continue
			}
			a, b, cc := operands[float64](r, s, layout{})
			a.Set(0, 0, n-1, math.NaN())  // row 0 of A
			a.Set(0, n-1, 0, math.Inf(1)) // row n-1 of A, column 0
			for col := 0; col < n; col++ {
				b.Set(0, 0, col, 0) // row 0 of B is zero: Inf*0 = NaN
			}
			require.NoError(t, Gemm(pinned(c), s.ta, s.tb, 1, a, b, 0, cc, nil))
			for col := 0; col < n; col++ {
				require.True(t, math.IsNaN(cc.At(0, 0, col)), "%s n=%d C(0,%d) = %v, want NaN", c, n, col, cc.At(0, 0, col))
				// Reference BLAS, and gonum after it, skip zero entries of
				// op(B), so Inf*0 is not NaN there; native kernels follow IEEE.
				if !c.Vendor() {
					require.True(t, math.IsNaN(cc.At(0, n-1, col)), "%s n=%d C(%d,%d) = %v, want NaN", c, n, n-1, col, cc.At(0, n-1, col))
				}
				for row := 1; row < n-1; row++ {
					require.False(t, math.IsNaN(cc.At(0, row, col)), "%s n=%d C(%d,%d) is NaN", c, n, row, col)
				}
			}
		}
	})
}

// TestWorkspaceExact: each candidate runs with exactly BufferSize elements
// of NaN workspace (reading unwritten workspace would poison C), and one
// element less is an ArgError naming ws.
func TestWorkspaceExact(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		if dt == sel.Float32 {
			workspaceExact[float32](t, c)
		} else {
			workspaceExact[float64](t, c)
		}
	})
}

func workspaceExact[T batchlas.Float](t *testing.T, c sel.Choice) {
	r := testmat.Rand(17)
	for _, mnk := range [][3]int{{9, 7, 5}, {65, 33, 130}, {16, 16, 16}, {3, 513, 2}} {
		for _, ta := range transCases {
			s := shape{ta, batchlas.Trans, mnk[0], mnk[1], mnk[2], 3}
			if !canRun(c, keyOf(s), batchlas.Host()) {
				continue
			}
			ctx := pinned(c)
			a, b, cc := operands[T](r, s, layout{})
			size, err := BufferSize(ctx, s.ta, s.tb, a, b, cc)
			require.NoError(t, err)
			require.Equal(t, workspace(context.Background(), c, batchlas.Host(), elemSize[T](), s.m, s.n, s.k), size)
			want, bound := oracle(s.ta, s.tb, 1, a, b, 1, cc)
			require.NoError(t, Gemm(ctx, s.ta, s.tb, 1, a, b, 1, cc, testmat.NaNs[T](size)))
			checkAgainst(t, fmt.Sprint(c, mnk), cc, want, bound)
			if size > 0 {
				err := Gemm(ctx, s.ta, s.tb, 1, a, b, 1, cc, make([]T, size-1))
				var ae *batchlas.ArgError
				require.True(t, errors.As(err, &ae), "short ws: got %v", err)
				require.Equal(t, "ws", ae.Arg)
			}
		}
	}
}

// TestCanRunEqualsLaunch: pinning a candidate succeeds exactly when can_run
// accepts the call; a refused pin is an error, never a panic.
func TestCanRunEqualsLaunch(t *testing.T) {
	forEachCandidate(t, func(t *testing.T, dt sel.DType, c sel.Choice) {
		r := testmat.Rand(19)
		for _, mnk := range [][3]int{{16, 16, 16}, {17, 16, 16}, {16, 17, 16}, {16, 16, 17}, {1, 1, 1}, {4, 2, 130}} {
			s := shape{batchlas.Trans, batchlas.NoTrans, mnk[0], mnk[1], mnk[2], 2}
			a, b, cc := operands[float64](r, s, layout{})
			ok := Op.CanRun(c, keyOf(s), batchlas.Host())
			err := Gemm(pinned(c), s.ta, s.tb, 1, a, b, 0, cc, nil)
			require.Equal(t, ok, err == nil, "%s %v: can_run %v, launch error %v", c, mnk, ok, err)
		}
	})
}

// TestZeroSizes: zero batch or zero m/n succeeds without touching memory;
// k == 0 or alpha == 0 scales C by beta without reading A or B.
func TestZeroSizes(t *testing.T) {
	ctx := t.Context()
	empty := batchlas.Batch[float64]{Rows: 3, Cols: 3, LD: 3, Stride: 9}
	require.NoError(t, Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, empty, empty, 1, empty, nil))
	zm := batchlas.Batch[float64]{Rows: 0, Cols: 3, LD: 1, Stride: 3, Count: 2}
	a := batchlas.NewBatch[float64](0, 4, 2)
	require.NoError(t, Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, batchlas.NewBatch[float64](4, 3, 2), 1, zm, nil))

	// k == 0: C = beta*C.
	c := batchlas.NewBatch[float64](2, 2, 2)
	for i := range c.Data {
		c.Data[i] = float64(i)
	}
	require.NoError(t, Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, batchlas.NewBatch[float64](2, 0, 2), batchlas.NewBatch[float64](0, 2, 2), 3, c, nil))
	for i, v := range c.Data {
		require.Equal(t, 3*float64(i), v)
	}
	// alpha == 0: A and B full of NaN are not read; beta == 0 clears NaN C.
	nan := batchlas.NewBatch[float64](2, 2, 2)
	for i := range nan.Data {
		nan.Data[i] = math.NaN()
	}
	c2 := testmat.Clone(nan)
	require.NoError(t, Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 0, nan, nan, 0, c2, nil))
	for _, v := range c2.Data {
		require.Equal(t, 0.0, v)
	}
	n, err := BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, empty, empty, empty)
	require.NoError(t, err)
	require.Equal(t, 0, n)
}

// TestBadArguments: each bad argument is an ArgError naming gemm and the
// argument.
func TestBadArguments(t *testing.T) {
	ok := func() (a, b, c batchlas.Batch[float64]) {
		return batchlas.NewBatch[float64](4, 3, 2), batchlas.NewBatch[float64](3, 5, 2), batchlas.NewBatch[float64](4, 5, 2)
	}
	cases := []struct {
		name   string
		ta, tb batchlas.Transpose
		edit   func(a, b, c *batchlas.Batch[float64])
		arg    string
	}{
		{"bad ta", 'X', 'N', nil, "ta"},
		{"bad tb", 'N', 'x', nil, "tb"},
		{"negative rows", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { a.Rows = -1 }, "a"},
		{"negative count", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { c.Count = -1 }, "c"},
		{"lda too small", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { a.LD = 3 }, "a"},
		{"ldb too small", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { b.LD = 2 }, "b"},
		{"short c", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { c.Data = c.Data[:len(c.Data)-1] }, "c"},
		{"short a", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { a.Data = a.Data[:5] }, "a"},
		{"overlapping c", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { c.Stride = 19 }, "c"},
		{"broadcast c", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { c.Stride = 0 }, "c"},
		{"m mismatch", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { *c = batchlas.NewBatch[float64](3, 5, 2) }, "a"},
		{"n mismatch", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { *c = batchlas.NewBatch[float64](4, 4, 2) }, "b"},
		{"k mismatch", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { *b = batchlas.NewBatch[float64](2, 5, 2) }, "b"},
		{"k mismatch trans", 'T', 'N', nil, "a"},
		{"a count", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { a.Count = 1 }, "a"},
		{"b count", 'N', 'N', func(a, b, c *batchlas.Batch[float64]) { b.Count = 3; b.Data = make([]float64, 45) }, "b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b, c := ok()
			if tc.edit != nil {
				tc.edit(&a, &b, &c)
			}
			for _, call := range []func() error{
				func() error { return Gemm(t.Context(), tc.ta, tc.tb, 1, a, b, 1, c, nil) },
				func() error { _, err := BufferSize(t.Context(), tc.ta, tc.tb, a, b, c); return err },
			} {
				err := call()
				var ae *batchlas.ArgError
				require.True(t, errors.As(err, &ae), "want ArgError, got %v", err)
				require.Equal(t, "gemm", ae.Op)
				require.Equal(t, tc.arg, ae.Arg, "error: %v", err)
			}
		})
	}
}
