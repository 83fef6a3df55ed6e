package batchlas

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireArgError checks that err is an *ArgError from op on arg whose
// message contains want.
func requireArgError(t *testing.T, err error, op, arg, want string) {
	t.Helper()
	var ae *ArgError
	require.True(t, errors.As(err, &ae), "want *ArgError, got %T (%v)", err, err)
	require.Equal(t, op, ae.Op, "error: %v", err)
	require.Equal(t, arg, ae.Arg, "error: %v", err)
	require.Contains(t, err.Error(), want)
	require.True(t, strings.HasPrefix(err.Error(), op+": "), err.Error())
}

// counting is a rows x cols x count batch with ld and stride whose every
// element of the backing slice is its own index plus 1, padding included.
func counting(rows, cols, ld, stride, count int) Batch[float64] {
	n := 0
	if count > 0 && rows > 0 && cols > 0 {
		n = (count-1)*stride + (cols-1)*ld + rows
	}
	b := Batch[float64]{Data: make([]float64, n+3), Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
	for i := range b.Data {
		b.Data[i] = float64(i + 1)
	}
	return b
}

func TestBroadcast(t *testing.T) {
	m := counting(3, 2, 4, 9, 2)
	b := Broadcast(m, 5)
	require.True(t, b.IsBroadcast())
	require.False(t, m.IsBroadcast())
	require.Equal(t, 0, b.Stride)
	require.Equal(t, 5, b.Count)
	require.Equal(t, m.LD, b.LD)
	require.NoError(t, b.Check("op", "a", false))
	for i := range 5 {
		for c := range 2 {
			for r := range 3 {
				require.Equal(t, m.At(0, r, c), b.At(i, r, c))
			}
		}
	}
	// A copy, a Sub view and a broadcast of a broadcast stay broadcasts;
	// setting a stride makes an ordinary batch again.
	c := b
	require.True(t, c.IsBroadcast())
	s, err := b.Sub(1, 4)
	require.NoError(t, err)
	require.True(t, s.IsBroadcast())
	require.Equal(t, 3, s.Count)
	require.NoError(t, s.Check("op", "a", false))
	require.True(t, Broadcast(b, 2).IsBroadcast())
	c.Stride = 9
	require.False(t, c.IsBroadcast())
	c.Stride = 0
	require.True(t, c.IsBroadcast(), "the mark stays; stride 0 again is the broadcast again")

	// Counts 0 and 1 are legal for read and written operands.
	for _, n := range []int{0, 1} {
		x := Broadcast(m, n)
		require.NoError(t, x.Check("op", "c", true), "count %d", n)
		require.Equal(t, n, x.Count)
	}
	// A plain batch of stride 0 is one matrix at most.
	require.False(t, Batch[float64]{Rows: 1, Cols: 1, LD: 1, Count: 1, Data: []float64{1}}.IsBroadcast())
}

func TestSub(t *testing.T) {
	b := counting(2, 3, 3, 10, 5)
	s, err := b.Sub(1, 4)
	require.NoError(t, err)
	require.Equal(t, 3, s.Count)
	require.NoError(t, s.Check("op", "s", true))
	for i := range 3 {
		require.Equal(t, b.Matrix(i+1), s.Matrix(i))
	}
	s.Set(0, 1, 2, -1)
	require.Equal(t, -1.0, b.At(1, 1, 2), "Sub shares storage")
	for _, lohi := range [][2]int{{0, 0}, {5, 5}, {0, 5}, {4, 5}} {
		s, err := b.Sub(lohi[0], lohi[1])
		require.NoError(t, err, "%v", lohi)
		require.Equal(t, lohi[1]-lohi[0], s.Count)
		require.NoError(t, s.Check("op", "s", true))
	}
	// Empty matrices: nothing to reach, whatever the stride.
	e := Batch[float64]{Rows: 0, Cols: 3, LD: 1, Stride: 1 << 60, Count: 4}
	s, err = e.Sub(2, 4)
	require.NoError(t, err)
	require.Equal(t, 2, s.Count)

	requireArgError(t, func() error { _, err := b.Sub(-1, 2); return err }(), "Batch.Sub", "lo", "lo -1 outside [0, count 5]")
	requireArgError(t, func() error { _, err := b.Sub(6, 6); return err }(), "Batch.Sub", "lo", "lo 6 outside")
	requireArgError(t, func() error { _, err := b.Sub(3, 2); return err }(), "Batch.Sub", "hi", "hi 2 outside [lo 3, count 5]")
	requireArgError(t, func() error { _, err := b.Sub(0, 6); return err }(), "Batch.Sub", "hi", "hi 6 outside")
	bad := b
	bad.LD = 1
	requireArgError(t, func() error { _, err := bad.Sub(0, 1); return err }(), "Batch.Sub", "b", "ld 1 < max(1, rows 2)")
	lit := Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 3}
	requireArgError(t, func() error { _, err := lit.Sub(0, 1); return err }(), "Batch.Sub", "b", "batchlas.Broadcast(m, 3)")
}

func TestWrapBatch(t *testing.T) {
	data := make([]float32, 2*3*4+1)
	for i := range data {
		data[i] = float32(i)
	}
	b, err := WrapBatch(data, 2, 3, 4)
	require.NoError(t, err)
	require.Equal(t, Batch[float32]{Data: data, Rows: 2, Cols: 3, LD: 2, Stride: 6, Count: 4}, b)
	require.Equal(t, float32(3*6+2*2+1), b.At(3, 1, 2), "column-major: (r, c) of matrix i at i*6 + c*2 + r")
	require.Equal(t, &data[0], &b.Data[0], "shares data")

	// Zero sizes: LD stays at least 1, nothing is needed.
	for _, s := range [][3]int{{0, 3, 4}, {3, 0, 4}, {3, 3, 0}} {
		b, err := WrapBatch[float64](nil, s[0], s[1], s[2])
		require.NoError(t, err, "%v", s)
		require.Equal(t, max(1, s[0]), b.LD)
		require.NoError(t, b.Check("op", "b", true))
	}

	for _, c := range []struct {
		name                 string
		n, rows, cols, count int
		arg, want            string
	}{
		{"negative rows", 10, -1, 2, 1, "rows", "rows -1 < 0"},
		{"negative cols", 10, 2, -2, 1, "cols", "cols -2 < 0"},
		{"negative count", 10, 2, 2, -3, "count", "count -3 < 0"},
		{"short", 23, 2, 3, 4, "data", "data has 23 elements, need 24"},
		{"too many", 0, math.MaxInt / 2, 3, 1, "cols", "a matrix of"},
		{"too many matrices", 0, 2, 2, math.MaxInt / 2, "count", "more elements than an int can count"},
	} {
		_, err := WrapBatch(make([]float64, c.n), c.rows, c.cols, c.count)
		requireArgError(t, err, "WrapBatch", c.arg, c.want)
	}
}

func TestWrapStrided(t *testing.T) {
	data := make([]float64, 40)
	b, err := WrapStrided(data, 2, 3, 4, 13, 3)
	require.NoError(t, err)
	require.Equal(t, Batch[float64]{Data: data, Rows: 2, Cols: 3, LD: 4, Stride: 13, Count: 3}, b)
	// A read-only layout whose matrices start in the previous one's
	// padding is accepted; ops refuse it for written operands.
	b, err = WrapStrided(data, 2, 3, 4, 10, 3)
	require.NoError(t, err)
	require.Error(t, b.Check("op", "c", true))
	// Stride 0 is one matrix at most; nothing is needed for empty ones.
	_, err = WrapStrided(data, 2, 3, 4, 0, 1)
	require.NoError(t, err)
	_, err = WrapStrided[float64](nil, 2, 0, 4, 0, 7)
	require.NoError(t, err)

	for _, c := range []struct {
		name                             string
		n, rows, cols, ld, stride, count int
		arg, want                        string
	}{
		{"negative rows", 40, -2, 3, 4, 12, 3, "rows", "rows -2 < 0"},
		{"negative count", 40, 2, 3, 4, 12, -1, "count", "count -1 < 0"},
		{"ld below rows", 40, 5, 3, 4, 15, 2, "ld", "ld 4 < max(1, rows 5)"},
		{"ld zero", 40, 0, 3, 0, 3, 2, "ld", "ld 0 < max(1, rows 0)"},
		{"negative stride", 40, 2, 3, 4, -12, 3, "stride", "stride -12 < 0"},
		{"overlapping stride", 40, 2, 3, 4, 9, 3, "stride", "matrices overlap"},
		{"stride 0 over several", 40, 2, 3, 4, 0, 3, "stride", "batchlas.Broadcast(m, 3)"},
		{"short", 35, 2, 3, 4, 13, 3, "data", "data has 35 elements, need 36"},
		{"overflow", 40, 2, 3, 4, math.MaxInt / 2, 3, "stride", "more elements than an int can count"},
	} {
		_, err := WrapStrided(make([]float64, c.n), c.rows, c.cols, c.ld, c.stride, c.count)
		requireArgError(t, err, "WrapStrided", c.arg, c.want)
	}
}

func TestNewBatchAndIdentity(t *testing.T) {
	b := NewBatch[float64](0, 3, 2)
	require.Equal(t, 1, b.LD)
	require.NoError(t, b.Check("op", "b", true))

	id := NewIdentity[float32](3, 2)
	require.Equal(t, Batch[float32]{Data: []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1}, Rows: 3, Cols: 3, LD: 3, Stride: 9, Count: 2}, id)
	require.Empty(t, NewIdentity[float64](0, 4).Data)

	// Sizes only, no data: a negative size or an impossible size panics,
	// as make does, and never returns a batch with less storage than it
	// says (a product that wrapped around).
	for _, s := range [][3]int{{-1, 2, 2}, {2, -1, 2}, {2, 2, -1}, {-2, -3, -1}, {1 << 32, 1 << 32, 1}} {
		require.Panics(t, func() { NewBatch[float64](s[0], s[1], s[2]) }, "%v", s)
	}
	require.Panics(t, func() { NewIdentity[float64](-1, 2) })
	require.Panics(t, func() { NewIdentity[float64](2, -1) })
	require.Panics(t, func() { NewIdentity[float64](1<<32, 2) })
}

func TestClone(t *testing.T) {
	b := counting(3, 2, 5, 12, 3)
	c, err := b.Clone()
	require.NoError(t, err)
	require.Equal(t, 3, c.LD)
	require.Equal(t, 6, c.Stride)
	require.Len(t, c.Data, 18)
	require.False(t, Overlap(b, c))
	for i := range 3 {
		for col := range 2 {
			for r := range 3 {
				require.Equal(t, b.At(i, r, col), c.At(i, r, col))
			}
		}
	}
	c.Set(0, 0, 0, -1)
	require.Equal(t, 1.0, b.At(0, 0, 0), "the clone shares nothing")

	// A broadcast clones to a broadcast of one stored matrix.
	bc, err := Broadcast(b, 4).Clone()
	require.NoError(t, err)
	require.True(t, bc.IsBroadcast())
	require.Equal(t, 4, bc.Count)
	require.Len(t, bc.Data, 6)
	require.Equal(t, b.At(0, 2, 1), bc.At(3, 2, 1))

	// Empty batches clone to batches with no storage.
	for _, e := range []Batch[float64]{NewBatch[float64](3, 3, 0), NewBatch[float64](0, 3, 2), Broadcast(b, 0)} {
		c, err := e.Clone()
		require.NoError(t, err)
		require.Empty(t, c.Data)
		require.Equal(t, e.Count, c.Count)
		require.NoError(t, c.Check("op", "c", false))
	}

	bad := b
	bad.Data = bad.Data[:10]
	_, err = bad.Clone()
	requireArgError(t, err, "Batch.Clone", "b", "data has 10 elements")
}

func TestCopyMatrixInOut(t *testing.T) {
	b := counting(3, 2, 5, 12, 3)
	before := append([]float64(nil), b.Data...)
	// src is 3x2 with ld 4: column c at src[4c:4c+3].
	src := []float64{-1, -2, -3, 99, -4, -5, -6}
	require.NoError(t, b.CopyMatrixIn(1, src, 4))
	for j := range b.Data {
		i, r, c := j/12, j%12%5, j%12/5
		if i == 1 && r < 3 && c < 2 {
			require.Equal(t, src[c*4+r], b.Data[j], "element (%d,%d) of matrix 1", r, c)
		} else {
			require.Equal(t, before[j], b.Data[j], "data[%d], outside matrix 1, was written", j)
		}
	}
	dst := []float64{7, 7, 7, 7, 7, 7, 7, 7}
	require.NoError(t, b.CopyMatrixOut(1, dst, 4))
	require.Equal(t, []float64{-1, -2, -3, 7, -4, -5, -6, 7}, dst, "only the matrix's elements are written")
	require.NoError(t, b.CopyMatrixOut(2, dst[:6], 3))
	require.Equal(t, []float64{25, 26, 27, 30, 31, 32}, dst[:6])

	// A broadcast reads its one matrix out for every index, and cannot be
	// written through one index when it has several matrices.
	bc := Broadcast(b, 3)
	require.NoError(t, bc.CopyMatrixOut(2, dst, 3))
	require.Equal(t, []float64{1, 2, 3, 6, 7, 8}, dst[:6])
	requireArgError(t, bc.CopyMatrixIn(1, src, 4), "Batch.CopyMatrixIn", "b", "b is a broadcast")
	require.NoError(t, Broadcast(b, 1).CopyMatrixIn(0, src, 4))
	require.Equal(t, -6.0, b.At(0, 2, 1))

	// The same matrix in the same place copies nothing; any other sharing
	// is refused, since a column-by-column copy would read elements it
	// had already overwritten.
	require.NoError(t, b.CopyMatrixIn(1, b.Data[12:], 5))
	require.NoError(t, b.CopyMatrixOut(1, b.Data[12:], 5))
	requireArgError(t, b.CopyMatrixIn(1, b.Data[13:], 5), "Batch.CopyMatrixIn", "src", "src shares elements with matrix 1 of b")
	requireArgError(t, b.CopyMatrixOut(1, b.Data[12:], 3), "Batch.CopyMatrixOut", "dst", "dst shares elements with matrix 1 of b (dst[0] is its element (0,0))")
	// Another matrix of the batch as the source shares nothing with the target.
	require.NoError(t, b.CopyMatrixIn(1, b.Data[24:], 5))
	for c := range 2 {
		for r := range 3 {
			require.Equal(t, b.At(2, r, c), b.At(1, r, c))
		}
	}

	// Empty matrices copy nothing but check the index and ld.
	e := NewBatch[float64](0, 2, 2)
	require.NoError(t, e.CopyMatrixIn(1, nil, 1))
	require.NoError(t, e.CopyMatrixOut(0, nil, 1))

	for _, f := range []struct {
		name string
		do   func(i int, x []float64, ld int) error
		op   string
		x    string
	}{
		{"in", b.CopyMatrixIn, "Batch.CopyMatrixIn", "src"},
		{"out", b.CopyMatrixOut, "Batch.CopyMatrixOut", "dst"},
	} {
		requireArgError(t, f.do(-1, src, 4), f.op, "i", "matrix -1 outside [0, count 3)")
		requireArgError(t, f.do(3, src, 4), f.op, "i", "matrix 3 outside [0, count 3)")
		requireArgError(t, f.do(0, src, 2), f.op, "ld", "ld 2 < max(1, rows 3)")
		requireArgError(t, f.do(0, src[:6], 4), f.op, f.x, f.x+" has 6 elements, need 7")
		requireArgError(t, f.do(0, nil, 3), f.op, f.x, f.x+" has 0 elements, need 6")
		lit := Batch[float64]{Data: make([]float64, 6), Rows: 3, Cols: 2, LD: 3, Count: 2}
		if f.name == "in" {
			requireArgError(t, lit.CopyMatrixIn(0, src, 4), f.op, "b", "batchlas.Broadcast(m, 2)")
		} else {
			requireArgError(t, lit.CopyMatrixOut(0, src, 4), f.op, "b", "batchlas.Broadcast(m, 2)")
		}
	}
	require.Equal(t, []float64{-1, -2, -3, 99, -4, -5, -6}, src, "refused calls write nothing")
}

func TestSetZeroAndIdentity(t *testing.T) {
	for _, f := range []struct {
		name string
		set  func(Batch[float64]) error
		want func(r, c int) float64
	}{
		{"zero", Batch[float64].SetZero, func(r, c int) float64 { return 0 }},
		{"identity", Batch[float64].SetIdentity, func(r, c int) float64 {
			if r == c {
				return 1
			}
			return 0
		}},
	} {
		// Square and rectangular, both ways, with padding between columns
		// and matrices that must keep its values.
		for _, s := range [][2]int{{3, 3}, {4, 2}, {2, 4}} {
			rows, cols := s[0], s[1]
			ld, stride := rows+2, (rows+2)*cols+3
			b := counting(rows, cols, ld, stride, 3)
			before := append([]float64(nil), b.Data...)
			require.NoError(t, f.set(b))
			for j := range b.Data {
				i, r, c := j/stride, j%stride%ld, j%stride/ld
				if i < 3 && r < rows && c < cols {
					require.Equal(t, f.want(r, c), b.Data[j], "%s %dx%d: matrix %d (%d,%d)", f.name, rows, cols, i, r, c)
				} else {
					require.Equal(t, before[j], b.Data[j], "%s %dx%d: data[%d] is not an element", f.name, rows, cols, j)
				}
			}
		}
		// A broadcast sets its one stored matrix, and so every matrix.
		b := counting(2, 2, 3, 0, 1)
		bc := Broadcast(b, 5)
		require.NoError(t, f.set(bc))
		require.Equal(t, f.want(1, 0), bc.At(4, 1, 0))
		require.Equal(t, f.want(1, 1), bc.At(2, 1, 1))
		require.Equal(t, 3.0, b.Data[2], "padding of the broadcast matrix")
		require.NoError(t, f.set(NewBatch[float64](0, 3, 2)))

		bad := Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 2}
		err := f.set(bad)
		op := map[string]string{"zero": "Batch.SetZero", "identity": "Batch.SetIdentity"}[f.name]
		requireArgError(t, err, op, "b", "batchlas.Broadcast(m, 2)")
		require.Equal(t, []float64{0, 0, 0, 0}, bad.Data)
		bad.Data = []float64{5, 5, 5, 5}
		bad.Stride = 4
		requireArgError(t, f.set(bad), op, "b", "data has 4 elements, need 8")
		require.Equal(t, []float64{5, 5, 5, 5}, bad.Data, "a refused call writes nothing")
	}
}
