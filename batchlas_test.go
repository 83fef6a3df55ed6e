package batchlas

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBatchCheck(t *testing.T) {
	good := NewBatch[float64](4, 3, 5)
	require.NoError(t, good.Check("op", "a", true))
	require.Equal(t, 4, good.LD)
	require.Equal(t, 12, good.Stride)
	require.Len(t, good.Data, 60)

	cases := []struct {
		name    string
		b       Batch[float64]
		written bool
		want    string // substring of the message
	}{
		{"negative rows", Batch[float64]{Rows: -1, Cols: 2, LD: 1, Count: 1}, false, "rows -1 < 0"},
		{"negative cols", Batch[float64]{Rows: 2, Cols: -2, LD: 2, Count: 1}, false, "cols -2 < 0"},
		{"negative count", Batch[float64]{Rows: 2, Cols: 2, LD: 2, Count: -3}, false, "count -3 < 0"},
		{"ld below rows", Batch[float64]{Data: make([]float64, 100), Rows: 4, Cols: 2, LD: 3, Stride: 8, Count: 1}, false, "ld 3 < max(1, rows 4)"},
		{"ld zero", Batch[float64]{Rows: 0, Cols: 2, LD: 0, Count: 1}, false, "ld 0 < max(1, rows 0)"},
		{"negative stride", Batch[float64]{Data: make([]float64, 100), Rows: 2, Cols: 2, LD: 2, Stride: -4, Count: 2}, false, "stride -4 < 0"},
		{"overlap written", Batch[float64]{Data: make([]float64, 100), Rows: 2, Cols: 2, LD: 4, Stride: 6, Count: 2}, true, "matrices overlap"},
		{"overlap read", Batch[float64]{Data: make([]float64, 100), Rows: 2, Cols: 2, LD: 4, Stride: 5, Count: 2}, false, "matrices overlap"},
		// Stride 0 over several matrices is a broadcast only when Broadcast
		// made it: a literal that leaves Stride out is refused, read or
		// written, with the two ways out.
		{"stride 0 literal written", Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Stride: 0, Count: 2}, true, "stride 0 with count 2, and a is written: give each matrix its own storage, Stride ld*cols = 4 or more"},
		{"stride 0 literal read", Batch[float64]{Data: make([]float64, 9), Rows: 3, Cols: 3, LD: 3, Count: 7}, false, "stride 0 with count 7: set Stride to ld*cols = 9 (or more) for 7 matrices of their own, or repeat one matrix with batchlas.Broadcast(m, 7)"},
		{"broadcast written", Broadcast(Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 1}, 2), true, "a is a broadcast (one matrix for all 2) but is written"},
		{"broadcast of no matrix", Broadcast(Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 0}, 3), false, "a was made by Broadcast from a batch with no matrix"},
		{"broadcast of a negative count", Broadcast(Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: -1}, 3), false, "a was made by Broadcast from a batch with no matrix"},
		{"broadcast to a negative count", Broadcast(Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Count: 1}, -2), false, "count -2 < 0"},
		{"broadcast of a bad ld", Broadcast(Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 1, Count: 1}, 2), false, "ld 1 < max(1, rows 2)"},
		{"broadcast of short data", Broadcast(Batch[float64]{Data: make([]float64, 3), Rows: 2, Cols: 2, LD: 2, Count: 1}, 2), false, "data has 3 elements, need 4"},
		{"ld times cols overflows", Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 1 << 40, LD: 1 << 40, Stride: 0, Count: 1}, false, "more elements than an int can count"},
		{"stride times count overflows", Batch[float64]{Data: make([]float64, 4), Rows: 2, Cols: 2, LD: 2, Stride: 1 << 62, Count: 4}, false, "more elements than an int can count"},
		// (4-1)*4 + (2-1)*2 + 2 = 16 elements: one short.
		{"short data", Batch[float64]{Data: make([]float64, 15), Rows: 2, Cols: 2, LD: 2, Stride: 4, Count: 4}, false, "data has 15 elements, need 16"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.b.Check("potrf", "a", c.written)
			require.Error(t, err)
			var ae *ArgError
			require.True(t, errors.As(err, &ae))
			require.Equal(t, "potrf", ae.Op)
			require.Equal(t, "a", ae.Arg)
			require.Contains(t, err.Error(), c.want)
			require.True(t, strings.HasPrefix(err.Error(), "potrf: "))
		})
	}

	// Legal corner cases: zero batch, zero dimension, read-only broadcasts,
	// stride 0 over one matrix or none,
	// a read-only stride below ld*cols that still does not overlap the span,
	// and data ending exactly at the last element of the last matrix.
	ok := []struct {
		name    string
		b       Batch[float32]
		written bool
	}{
		{"zero count", Batch[float32]{Rows: 3, Cols: 3, LD: 3, Count: 0}, true},
		{"zero rows", Batch[float32]{Rows: 0, Cols: 3, LD: 1, Count: 4}, true},
		{"broadcast read", Broadcast(Batch[float32]{Data: make([]float32, 9), Rows: 3, Cols: 3, LD: 3, Count: 1}, 7), false},
		{"broadcast of a stride-0 literal", Broadcast(Batch[float32]{Data: make([]float32, 9), Rows: 3, Cols: 3, LD: 3, Count: 7}, 7), false},
		{"stride 0 one written", Batch[float32]{Data: make([]float32, 9), Rows: 3, Cols: 3, LD: 3, Stride: 0, Count: 1}, true},
		{"broadcast one written", Broadcast(Batch[float32]{Data: make([]float32, 9), Rows: 3, Cols: 3, LD: 3, Count: 1}, 1), true},
		{"broadcast zero written", Broadcast(Batch[float32]{Data: make([]float32, 9), Rows: 3, Cols: 3, LD: 3, Count: 1}, 0), true},
		{"broadcast of no matrix to none", Broadcast(Batch[float32]{Rows: 3, Cols: 3, LD: 3}, 0), false},
		{"stride 0 over empty matrices", NewBatch[float32](3, 0, 5), true},
		{"exact end", Batch[float32]{Data: make([]float32, 2*20+3*5+2), Rows: 2, Cols: 4, LD: 5, Stride: 20, Count: 3}, true},
	}
	for _, c := range ok {
		require.NoError(t, c.b.Check("gemm", "c", c.written), c.name)
	}
}

func TestMatrixView(t *testing.T) {
	b := NewBatch[float64](3, 2, 4)
	b.Set(2, 1, 1, 7)
	require.Equal(t, 7.0, b.At(2, 1, 1))
	m := b.Matrix(2)
	require.Len(t, m, 6)
	require.Equal(t, 7.0, m[1*3+1])
	require.Empty(t, Batch[float64]{Rows: 0, Cols: 2, LD: 1, Count: 1}.Matrix(0))
}

func TestEnumsCheck(t *testing.T) {
	require.NoError(t, Lower.Check("potrf"))
	require.NoError(t, Upper.Check("potrf"))
	require.ErrorContains(t, Uplo('X').Check("potrf"), "potrf: uplo 'X'")
	require.NoError(t, Left.Check("trsm"))
	require.ErrorContains(t, Side('l').Check("trsm"), "trsm: side 'l'")
	require.NoError(t, Trans.Check("gemm", "ta"))
	require.ErrorContains(t, Transpose('C').Check("gemm", "tb"), "gemm: tb 'C'")
	require.NoError(t, Unit.Check("trsm"))
	require.ErrorContains(t, Diag(0).Check("trsm"), "trsm: diag")
}

// The enums spell themselves as their letter, without allocating: every
// trsm and potrf call builds its selection key from them.
func TestEnumLettersDoNotAllocate(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Lower.String(), "L"}, {Right.String(), "R"}, {Trans.String(), "T"}, {Unit.String(), "U"},
		// Any byte reads as its rune, as string(rune(b)) does.
		{Side(0xe9).String(), "é"},
	} {
		if c.got != c.want {
			t.Errorf("String() = %q, want %q", c.got, c.want)
		}
	}
	var sink string
	allocs := testing.AllocsPerRun(100, func() {
		sink = Upper.String()
		sink = Left.String()
		sink = NoTrans.String()
		sink = NonUnit.String()
	})
	if allocs != 0 {
		t.Errorf("the enums' String methods allocate %v times per call, want 0", allocs)
	}
	_ = sink
}
