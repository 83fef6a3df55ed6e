package gemm

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// withL2 is the host with another per-core L2 size (0: not reported).
func withL2(l2 int) *sel.Device {
	d := *batchlas.Host()
	d.L2 = l2
	return &d
}

// packedCandidates are the compiled packed choices, in candidate order.
func packedCandidates() []sel.Choice {
	var out []sel.Choice
	for _, c := range Op.Candidates(sel.Float64) {
		if c.Is(familyPacked) {
			out = append(out, c)
		}
	}
	return out
}

// mc is a whole number of register tiles within [mr, packedMaxMC], grows
// with the L2 and shrinks with the slice depth and the element size, and
// a device that does not report its L2 gets the default's value.
func TestPackedMC(t *testing.T) {
	l2s := []int{1, 1 << 10, 8 << 10, 32 << 10, 100_000, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 32 << 20, 1 << 30}
	for _, size := range []int{4, 8} {
		for _, kb := range []int{1, 7, 64, 128, 130, 256} {
			prev := 0
			for _, l2 := range l2s {
				mc := packedMC(withL2(l2), kb, size)
				what := fmt.Sprintf("L2=%d kb=%d size=%d", l2, kb, size)
				assert.Zero(t, mc%mr, "%s: mc=%d is not a multiple of mr", what, mc)
				assert.GreaterOrEqual(t, mc, mr, what)
				assert.LessOrEqual(t, mc, packedMaxMC, what)
				assert.GreaterOrEqual(t, mc, prev, "%s: mc must not shrink as L2 grows", what)
				if mc > mr {
					assert.LessOrEqual(t, mc*kb*size, l2/2, "%s: the A block must fit in half of L2", what)
				}
				if mc < packedMaxMC {
					assert.Greater(t, (mc+mr)*kb*size, l2/2, "%s: mc must be the largest that fits", what)
				}
				assert.LessOrEqual(t, packedMC(withL2(l2), kb+1, size), mc, "%s: a deeper slice must not get more rows", what)
				if size == 8 {
					assert.GreaterOrEqual(t, packedMC(withL2(l2), kb, 4), mc, "%s: float32 must not get fewer rows", what)
				}
				prev = mc
			}
			assert.Equal(t, mr, packedMC(withL2(1), kb, size), "a 1-byte L2 gives one register tile of rows")
			assert.Equal(t, packedMaxMC, packedMC(withL2(1<<30), kb, size), "a huge L2 gives the cap")
			assert.Equal(t, packedMC(withL2(packedDefaultL2), kb, size), packedMC(withL2(0), kb, size), "L2 not reported")
			assert.Equal(t, packedMC(withL2(packedDefaultL2), kb, size), packedMC(nil, kb, size), "no device")
		}
	}
	h := batchlas.Host()
	t.Logf("host %s: L2 %d bytes per core; float64 mc = %d (kb 128), %d (kb 256)", h.Key, h.L2, packedMC(h, 128, 8), packedMC(h, 256, 8))
}

// mc follows the device the call runs on: on a device with a tiny L2 the
// kernel packs one register tile of rows per block (many blocks), on one
// with a large L2 the cap, and in between on a middle one. BufferSize sizes
// the workspace for the call's device, the call runs with exactly that
// much, and the results are correct and bit-identical whatever mc is.
func TestPackedMCFollowsTheDevice(t *testing.T) {
	for _, c := range packedCandidates() {
		t.Run(c.String()+"/float64", func(t *testing.T) { mcFollowsDevice[float64](t, c) })
		t.Run(c.String()+"/float32", func(t *testing.T) { mcFollowsDevice[float32](t, c) })
	}
}

func mcFollowsDevice[T batchlas.Float](t *testing.T, c sel.Choice) {
	const k = 130 // more than one 128-deep slice
	size := elemSize[T]()
	tiny, large := withL2(1), withL2(1<<30)
	kb := min(packedKC(c), k)
	mid := withL2(2 * 64 * kb * size) // mc = 64
	devs := []*sel.Device{tiny, mid, large}
	mcs := make([]int, len(devs))
	for i, d := range devs {
		mcs[i], _ = packedBlocking(c, d, size, k)
	}
	require.Equal(t, []int{mr, 64, packedMaxMC}, mcs)

	r := testmat.Rand(29)
	for _, m := range []int{3, 4, 5, 9, 63, 64, 65, 127, 511, 512, 513} {
		for _, ta := range transCases {
			s := shape{ta, batchlas.NoTrans, m, 5, k, 2}
			a, b, c0 := operands[T](r, s, layout{padLD: 1})
			want, bound := oracle(s.ta, s.tb, 1.5, a, b, -0.5, c0)
			var first []T
			sizes := make([]int, len(devs))
			for i, d := range devs {
				ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), d), opName, c.String())
				what := fmt.Sprintf("%s %c m=%d n=%d k=%d on L2=%d (mc %d)", c, ta, m, s.n, k, d.L2, mcs[i])
				n, err := BufferSize(ctx, s.ta, s.tb, a, b, c0)
				require.NoError(t, err)
				require.Equal(t, workspace(context.Background(), c, d, size, s.m, s.n, s.k), n, what)
				sizes[i] = n
				cc := testmat.Clone(c0)
				require.NoError(t, Gemm(ctx, s.ta, s.tb, 1.5, a, b, -0.5, cc, testmat.NaNs[T](n)), what)
				checkAgainst(t, what, cc, want, bound)
				if first == nil {
					first = cc.Data
				} else {
					require.Equal(t, first, cc.Data, "%s: not bit-identical to the result with mc = %d", what, mcs[0])
				}
			}
			if m > packedMaxMC {
				require.Less(t, sizes[0], sizes[1], "m=%d: the workspace must follow the device's mc", m)
				require.Less(t, sizes[1], sizes[2], "m=%d: the workspace must follow the device's mc", m)
			}
		}
	}
}

// kc changes what the kernel computes: it splits each sum over k into
// kc-deep slices, each summed on its own and then added to C. With k = 130
// the products 1, h, h (h half an ulp of 1, at k = 0, 128 and 129) sum to
// 1 in one 130-deep slice (1 + h rounds to 1, twice) but to 1 + 2h with
// kc = 128 (the second slice sums h + h = 2h exactly, and 1 + 2h is a
// float). Both are correct to the rounding bound; they differ in every
// element, on the assembly and the portable tile alike (the products are
// exact, so fused multiply-adds round as separate ones do).
func TestPackedKCSplitsTheSum(t *testing.T) {
	kcSplits[float64](t)
	kcSplits[float32](t)
}

func kcSplits[T batchlas.Float](t *testing.T) {
	h := T(testmat.Eps[T]())
	s := shape{batchlas.NoTrans, batchlas.NoTrans, 5, 3, 130, 2}
	a := batchlas.NewBatch[T](s.m, s.k, s.batch)
	b := batchlas.NewBatch[T](s.k, s.n, s.batch)
	for i := range s.batch {
		for row := range s.m {
			a.Set(i, row, 0, 1)
			a.Set(i, row, 128, h)
			a.Set(i, row, 129, h)
		}
		for col := range s.n {
			b.Set(i, 0, col, 1)
			b.Set(i, 128, col, 1)
			b.Set(i, 129, col, 1)
		}
	}
	c0 := batchlas.NewBatch[T](s.m, s.n, s.batch)
	want, bound := oracle(s.ta, s.tb, 1, a, b, 0, c0)
	results := map[int]T{128: 1 + 2*h, 256: 1}
	var got [][]T
	for _, c := range packedCandidates() {
		kc := packedKC(c)
		wantAll, ok := results[kc]
		require.True(t, ok, "no expectation for %s", c)
		cc := testmat.Clone(c0)
		require.NoError(t, Gemm(sel.WithStrictPin(context.Background(), opName, c.String()), s.ta, s.tb, 1, a, b, 0, cc, nil))
		checkAgainst(t, fmt.Sprintf("%s %T", c, h), cc, want, bound)
		for j, v := range cc.Data {
			require.Equal(t, wantAll, v, "%s %T element %d", c, h, j)
		}
		got = append(got, cc.Data)
	}
	require.Len(t, got, 2)
	require.NotEqual(t, got[0], got[1], "kc=128 and kc=256 must split the sum differently at k = 130")
}

// twin names packed:kc=128 for packed:kc=256 exactly when k <= 128 (one
// k-deep slice in both, the same mc), and nothing else; the two then give
// bit-identical results, on the host and on a device with a tiny L2.
func TestTwin(t *testing.T) {
	tw := Op.Spec().Twin
	require.NotNil(t, tw, "gemm declares no Twin")
	kc128, kc256 := familyPacked.With(128), familyPacked.With(256)
	require.Equal(t, []sel.Choice{kc128, kc256}, packedCandidates())
	r := testmat.Rand(31)
	for _, dt := range dtypes {
		for _, k := range []int{1, 2, 64, 127, 128, 129, 130, 256, 257} {
			s := shape{batchlas.NoTrans, batchlas.Trans, 9, 5, k, 2}
			for _, c := range Op.Candidates(dt) {
				want := ""
				if c == kc256 && k <= 128 {
					want = kc128.String()
				}
				require.Equal(t, want, tw(c, dt, keyOf(s), batchlas.Host()), "%s %s k=%d", dt, c, k)
			}
			if dt != sel.Float64 || k > 128 {
				continue
			}
			a, b, c0 := operands[float64](r, s, layout{})
			for _, d := range []*sel.Device{batchlas.Host(), withL2(1)} {
				var out [][]float64
				for _, c := range []sel.Choice{kc128, kc256} {
					cc := testmat.Clone(c0)
					ctx := sel.WithStrictPin(batchlas.WithDevice(context.Background(), d), opName, c.String())
					require.NoError(t, Gemm(ctx, s.ta, s.tb, 1, a, b, 0.5, cc, nil))
					out = append(out, cc.Data)
				}
				require.Equal(t, out[0], out[1], "k=%d L2=%d: twins must be bit-identical", k, d.L2)
			}
		}
	}
}
