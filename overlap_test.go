package batchlas

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// mark is the brute-force reference: it sets in[e] for the offset e from
// base of every element of x, a batch over base[off:].
func mark(in []bool, x Batch[float64], off int) {
	clear(in)
	for b := 0; b < x.Count; b++ {
		for j := 0; j < x.Cols; j++ {
			for i := 0; i < x.Rows; i++ {
				in[off+b*x.Stride+j*x.LD+i] = true
			}
		}
	}
}

// randomView draws a batch over base[off:] that passes Check: small sizes,
// padded or tight leading dimensions and strides, broadcast (read only)
// and empty batches now and then. With like, it is another view of like's
// parent: like's LD and Stride, its own sizes and offset.
func randomView(r *rand.Rand, base []float64, written bool, like *Batch[float64]) (Batch[float64], int) {
	for {
		x := Batch[float64]{Rows: r.IntN(5), Cols: r.IntN(5), Count: r.IntN(5)}
		if r.IntN(8) != 0 {
			x.Rows, x.Cols, x.Count = max(1, x.Rows), max(1, x.Cols), max(1, x.Count)
		}
		x.LD = max(1, x.Rows) + []int{0, 0, 1, 3, 7}[r.IntN(5)]
		span := max(0, (x.Cols-1)*x.LD+x.Rows)
		switch r.IntN(6) {
		case 0:
			x = Broadcast(x, x.Count) // read only, or a written single matrix
		case 1:
			x.Stride = span + r.IntN(4) // read operands may go below ld*cols
		default:
			x.Stride = x.LD*x.Cols + []int{0, 0, 1, 2, 5, 11}[r.IntN(6)]
		}
		if like != nil {
			x.LD, x.Stride, x.bcast = like.LD, like.Stride, like.bcast
			if r.IntN(4) != 0 {
				x.Count = like.Count
			}
		}
		off := r.IntN(40)
		if r.IntN(4) == 0 {
			off = r.IntN(4) // crowd the start so that views meet
		}
		x.Data = base[off:]
		if x.Check("t", "x", written) == nil {
			return x, off
		}
	}
}

// TestOverlapMatchesBruteForce is a property test: on many random pairs of
// batches in one array, Overlap agrees with the element sets, both ways
// round, and the element shared finds is one that both batches hold. A
// third of the pairs are views of one parent (same LD and stride), whose
// address ranges interleave.
func TestOverlapMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	base := make([]float64, 400)
	inX, inY := make([]bool, len(base)), make([]bool, len(base))
	const trials = 100000
	met := 0
	for trial := 0; trial < trials; trial++ {
		x, ox := randomView(r, base, true, nil)
		var like *Batch[float64]
		if trial%3 == 0 {
			like = &x
		}
		y, oy := randomView(r, base, r.IntN(2) == 0, like)
		mark(inX, x, ox)
		mark(inY, y, oy)
		want := false
		for e := range inX {
			if inX[e] && inY[e] {
				want = true
				break
			}
		}
		if want {
			met++
		}
		got := Overlap(x, y)
		if got != want || Overlap(y, x) != want {
			t.Fatalf("x %+v at %d, y %+v at %d: Overlap %v, want %v", strip(x), ox, strip(y), oy, got, want)
		}
		if want {
			e1, e2, ok := shared(x, y)
			require.True(t, ok)
			if !inX[ox+e1] || ox+e1 != oy+e2 {
				t.Fatalf("x %+v at %d, y %+v at %d: shared element x+%d, y+%d is not in both", strip(x), ox, strip(y), oy, e1, e2)
			}
		}
	}
	// The draw must exercise both answers.
	require.Greater(t, met, trials/10)
	require.Less(t, met, trials*9/10)
}

// strip is x without its data, for messages.
func strip(x Batch[float64]) Batch[float64] { x.Data = nil; return x }

// TestOverlapCases: the concrete layouts of issue #9.
func TestOverlapCases(t *testing.T) {
	// Slices of different arrays never overlap, however they are laid out.
	a, b := NewBatch[float64](4, 4, 3), NewBatch[float64](4, 4, 3)
	require.False(t, Overlap(a, b))
	// The same batch shares everything; so does a copy of its header.
	require.True(t, Overlap(a, a))
	// [A | B] side by side in the same columns: B starts at row m of each
	// column, LD >= m+p. Address ranges interleave, elements do not.
	const m, p, n, count = 3, 2, 4, 5
	ld := m + p + 1
	parent := make([]float64, ld*n*count)
	av := Batch[float64]{Data: parent, Rows: m, Cols: n, LD: ld, Stride: ld * n, Count: count}
	bv := Batch[float64]{Data: parent[m:], Rows: p, Cols: n, LD: ld, Stride: ld * n, Count: count}
	require.NoError(t, av.Check("t", "a", true))
	require.NoError(t, bv.Check("t", "b", true))
	require.False(t, Overlap(av, bv))
	// One row more and they share row m of every column: element (0,0) of
	// bv's first matrix is (2,0) of av's.
	bv.Data = parent[m-1:]
	require.True(t, Overlap(av, bv))
	eb, ea, ok := shared(bv, av)
	require.True(t, ok)
	require.Equal(t, 0, eb)
	require.Equal(t, 2, ea)
	// A broadcast read operand counts once: the written batch past its one
	// matrix does not overlap it, though its count reaches further.
	bc := Broadcast(Batch[float64]{Data: parent, Rows: m, Cols: n, LD: ld, Count: 1}, count)
	w := Batch[float64]{Data: parent[ld*n:], Rows: m, Cols: n, LD: ld, Stride: ld * n, Count: count - 1}
	require.False(t, Overlap(bc, w))
	// Different strides: the even matrices of a against a batch of every
	// other slot of the same array.
	even := Batch[float64]{Data: parent, Rows: m, Cols: n, LD: ld, Stride: 2 * ld * n, Count: (count + 1) / 2}
	odd := Batch[float64]{Data: parent[ld*n:], Rows: m, Cols: n, LD: ld, Stride: 2 * ld * n, Count: count / 2}
	require.False(t, Overlap(even, odd))
	require.True(t, Overlap(even, av))
	require.False(t, Overlap(odd, Batch[float64]{Data: parent, Rows: m, Cols: n, LD: ld, Stride: 2 * ld * n, Count: 1}))
	// Empty batches share nothing.
	require.False(t, Overlap(Batch[float64]{Data: parent, Rows: 0, Cols: 3, LD: 1, Count: 2}, av))
}

// TestOverlapCost: views of one huge batch are checked without walking the
// batch (same stride: a few single-matrix checks), and a broadcast operand
// against a batch walks the broadcast matrix's columns only. The batches
// are headers over a short slice: Overlap reads no element.
func TestOverlapCost(t *testing.T) {
	const count = 1 << 34
	data := make([]float64, 64)
	x := Batch[float64]{Data: data, Rows: 3, Cols: 8, LD: 7, Stride: 56, Count: count}
	y := Batch[float64]{Data: data[3:], Rows: 4, Cols: 8, LD: 7, Stride: 56, Count: count}
	bc := Broadcast(Batch[float64]{Data: data[3:], Rows: 4, Cols: 8, LD: 7, Count: 1}, count)
	start := time.Now()
	for range 1000 {
		require.False(t, Overlap(x, y))
		require.False(t, Overlap(x, bc))
		require.False(t, Overlap(bc, x))
	}
	y.Data = data[2:]
	require.True(t, Overlap(x, y))
	// Walking 2^34 matrices would take minutes; a few microseconds is the
	// expected cost, so a second leaves room for a loaded machine.
	require.Less(t, time.Since(start), time.Second)
}

func BenchmarkOverlap(b *testing.B) {
	parent := NewBatch[float64](64, 64, 1024)
	view := func(r0, c0, rows, cols int) Batch[float64] {
		return Batch[float64]{Data: parent.Data[c0*64+r0:], Rows: rows, Cols: cols, LD: 64, Stride: 64 * 64, Count: 1024}
	}
	other := NewBatch[float64](64, 64, 1024)
	b.Run("different arrays", func(b *testing.B) {
		for b.Loop() {
			Overlap(parent, other)
		}
	})
	b.Run("views of one batch", func(b *testing.B) {
		c, a := view(40, 32, 24, 8), view(40, 0, 24, 32)
		for b.Loop() {
			Overlap(c, a)
		}
	})
}
