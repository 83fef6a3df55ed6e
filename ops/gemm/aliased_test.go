package gemm

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestAliasedA: simd copies an A whose columns are 8 KiB apart (a view
// of an array with a power-of-two leading dimension) before its tiles read
// it (simdConflicts), a panel slice at a time. The copy must change no
// bit: C is the same as with A's columns 64 bytes further apart, read in
// place, and agrees with gonum; one matrix of several panels and slices,
// and small matrices that go one at a time instead of in groups.
func TestAliasedA(t *testing.T) {
	testAliasedA[float64](t, 1024)
	testAliasedA[float32](t, 2048)
}

func testAliasedA[T batchlas.Float](t *testing.T, aliased int) {
	ctx := pinned(familySIMD.With())
	for _, s := range []shape{
		{batchlas.NoTrans, batchlas.NoTrans, 64, 64, 64, 3},
		{batchlas.NoTrans, batchlas.Trans, 13, 40, 40, 5},
		{batchlas.NoTrans, batchlas.NoTrans, 50, 9, 40, 2}, // too narrow to copy
		{batchlas.NoTrans, batchlas.NoTrans, 300, 40, 700, 1},
	} {
		name := fmt.Sprintf("%T m=%d n=%d k=%d", T(0), s.m, s.n, s.k)
		r := testmat.Rand(uint64(s.m))
		src := testmat.Batch[T](r, s.m, s.k, s.batch, 0, 0)
		b := testmat.Batch[T](r, s.k, s.n, s.batch, 0, 0)
		if s.tb == batchlas.Trans {
			b = testmat.Batch[T](r, s.n, s.k, s.batch, 0, 0)
		}
		c0 := testmat.Batch[T](r, s.m, s.n, s.batch, 0, 0)
		var cs []batchlas.Batch[T]
		for _, ld := range []int{aliased, aliased + 64/elemSize[T]()} {
			a := testmat.WithLD(r, src, ld)
			p := problem[T]{m: s.m, n: s.n, k: s.k, a: a, l1: cache.L1D(batchlas.Host()), l2: cache.L2(batchlas.Host())}
			tileRows := 3 * 64 / elemSize[T]()
			require.Equal(t, ld == aliased && s.n >= simdCopyMinCols, simdConflicts(&p, ld, min(s.m, tileRows), min(s.k, simdSliceDepth)),
				"%s ld=%d: whether simd copies A", name, ld)
			c := testmat.Clone(c0)
			want, bound := oracle(s.ta, s.tb, T(0.5), a, b, T(2), c)
			require.NoError(t, Gemm(ctx, s.ta, s.tb, 0.5, a, b, 2, c, nil))
			checkAgainst(t, name, c, want, bound)
			cs = append(cs, c)
		}
		for i := range cs[0].Data {
			if cs[0].Data[i] != cs[1].Data[i] {
				t.Fatalf("%s: C differs at %d between A copied (ld %d) and read in place", name, i, aliased)
			}
		}
	}
}

// TestSIMDSizesFollowTheDevice: the panel and group sizes come from the
// device's L2, with the sizes the kernel was measured with where it
// reports none.
func TestSIMDSizesFollowTheDevice(t *testing.T) {
	for _, c := range []struct {
		l2           int
		panel, group int
	}{{0, 512 << 10, 256 << 10}, {1 << 20, 512 << 10, 256 << 10}, {2 << 20, 1 << 20, 512 << 10}} {
		d := &sel.Device{L2: c.l2}
		p := problem[float64]{l2: cache.L2(d)}
		if c.l2 == 0 {
			p.l2 = cache.Level{}
		}
		require.Equal(t, c.panel, simdPanelBytes(&p), "panel bytes for L2 %d", c.l2)
		require.Equal(t, c.group, simdGroupBytes(&p), "group bytes for L2 %d", c.l2)
	}
}

// TestStreamedC: on a device whose last-level cache is smaller than C, a
// batch with beta 0 and one k slice writes C with streaming stores
// (streams); the result is the same bits as the usual stores (a device
// with a large L3), agrees with gonum, and a beta != 0 call or a deep k
// never streams.
func TestStreamedC(t *testing.T) {
	testStreamedC[float64](t)
	testStreamedC[float32](t)
}

func testStreamedC[T batchlas.Float](t *testing.T) {
	small := *batchlas.Host()
	small.L3 = 64 << 10
	big := small
	big.L3 = 1 << 40
	for _, sl := range []struct {
		s shape
		l layout
	}{
		{shape{batchlas.NoTrans, batchlas.NoTrans, 32, 32, 32, 40}, layout{}},
		// Columns of 16 (64-byte aligned), 9 rows: a masked last vector.
		{shape{batchlas.Trans, batchlas.NoTrans, 9, 8, 17, 300}, layout{padLD: 7}},
		{shape{batchlas.NoTrans, batchlas.Trans, 48, 9, 20, 60}, layout{}},
	} {
		s := sl.s
		name := fmt.Sprintf("%T m=%d n=%d k=%d", T(0), s.m, s.n, s.k)
		r := testmat.Rand(uint64(s.m))
		a, b, c0 := operands[T](r, s, sl.l)
		p, err := newProblem(s.ta, s.tb, a, b, c0)
		require.NoError(t, err)
		// Only the assembly streams (purego builds have no aligned path).
		aligned := simd.StreamAligned(p.c.Data, p.c.LD, p.c.Stride)
		require.Equal(t, aligned, streams(&p, &small), "%s: streams with a 64 KiB L3", name)
		require.False(t, streams(&p, &big), "%s: streams with a 1 TiB L3", name)
		p.beta = 1
		require.False(t, streams(&p, &small), "%s: streams with beta 1", name)
		var cs []batchlas.Batch[T]
		for _, d := range []*sel.Device{&small, &big} {
			ctx := batchlas.WithDevice(pinned(familySIMD.With()), d)
			c := testmat.Clone(c0)
			want, bound := oracle(s.ta, s.tb, T(1.5), a, b, T(0), c)
			require.NoError(t, Gemm(ctx, s.ta, s.tb, 1.5, a, b, 0, c, nil))
			checkAgainst(t, name, c, want, bound)
			cs = append(cs, c)
		}
		for i := range cs[0].Data {
			if cs[0].Data[i] != cs[1].Data[i] {
				t.Fatalf("%s: C differs at %d between streamed and usual stores", name, i)
			}
		}
	}
}

// TestSwappedGroupFollowsL1: swapped's groups take two thirds of the
// device's L1D (32 KiB where it reports none).
func TestSwappedGroupFollowsL1(t *testing.T) {
	for _, c := range []struct{ l1, want int }{{48 << 10, 32 << 10}, {32 << 10, 21845}, {0, 32 << 10}} {
		p := problem[float32]{l1: cache.Level{Size: c.l1, Ways: 8}}
		require.Equal(t, c.want, swappedGroupBytes(&p), "L1D %d", c.l1)
	}
}
