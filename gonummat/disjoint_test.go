package gonummat_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/gonummat"
)

// seq is 1, 2, ..., n.
func seq(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = float64(i + 1)
	}
	return d
}

// viewOf is an r x c mat.Dense over data with row stride s.
func viewOf(data []float64, r, c, s int) *mat.Dense {
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: s, Data: data[:(r-1)*s+c]})
	return &m
}

// TestCopySharedStorage: a copy between a batch and mat.Dense matrices
// that share storage is refused, naming the function, dst and the matrix,
// and writes nothing.
func TestCopySharedStorage(t *testing.T) {
	const copyTo, copyFrom = "gonummat.CopyToDense", "gonummat.CopyFromDense"

	// The case: a 3x3 mat.Dense and a batch wrapping its own data.
	d := mat.NewDense(3, 3, seq(9))
	b, err := batchlas.WrapBatch(d.RawMatrix().Data, 3, 3, 1)
	require.NoError(t, err)
	before := append([]float64(nil), d.RawMatrix().Data...)
	requireArgError(t, gonummat.CopyFromDense(b, []*mat.Dense{d}), copyFrom, "dst", "dst and ms[0] share storage")
	requireArgError(t, gonummat.CopyToDense(b, []*mat.Dense{d}), copyTo, "dst", "b and dst[0] share storage")
	require.Equal(t, before, d.RawMatrix().Data, "a refused copy wrote")

	// Partial overlaps with the second of five 2x2 matrices: one element
	// at either end of the batch, one inside it across two of its
	// matrices, and rows of a wide stride of which only one meets it.
	data := seq(60)
	batch, err := batchlas.WrapBatch(data[20:40], 2, 2, 5) // elements 20..39
	require.NoError(t, err)
	own := mat.NewDense(2, 2, nil)
	for name, m := range map[string]*mat.Dense{
		"last element is the batch's first": viewOf(data[17:], 2, 2, 2),
		"first element is the batch's last": viewOf(data[39:], 2, 2, 2),
		"inside, across two matrices":       viewOf(data[22:], 2, 2, 2),
		"one row of a wide stride":          viewOf(data[4:], 2, 2, 16), // rows at 4 and 20
	} {
		ms := []*mat.Dense{own, m, own, own, own}
		requireArgError(t, gonummat.CopyFromDense(batch, ms), copyFrom, "dst", "dst and ms[1] share storage")
		requireArgError(t, gonummat.CopyToDense(batch, ms), copyTo, "dst", "b and dst[1] share storage")
		_ = name
	}
}

// TestCopyAdjacentStorage: storage next to the batch's, or interleaved
// with it in padding that belongs to neither, is not shared, and the copy
// goes ahead.
func TestCopyAdjacentStorage(t *testing.T) {
	data := seq(60)
	batch, err := batchlas.WrapBatch(data[20:40], 2, 2, 5) // elements 20..39
	require.NoError(t, err)
	own := mat.NewDense(2, 2, nil)
	for _, m := range []*mat.Dense{viewOf(data[16:], 2, 2, 2), viewOf(data[40:], 2, 2, 2)} {
		ms := []*mat.Dense{own, m, own, own, own}
		require.NoError(t, gonummat.CopyToDense(batch, ms))
		require.NoError(t, gonummat.CopyFromDense(batch, ms))
	}

	// A 2x2 batch of LD 4 holds elements 0, 1, 4, 5; a 2x2 mat.Dense of
	// stride 4 at element 2 holds 2, 3, 6, 7: the padding of the batch.
	parent := seq(8)
	padded, err := batchlas.WrapStrided(parent, 2, 2, 4, 8, 1)
	require.NoError(t, err)
	inPadding := viewOf(parent[2:], 2, 2, 4)
	require.NoError(t, gonummat.CopyToDense(padded, []*mat.Dense{inPadding}))
	// Column-major batch to row-major matrix: (r, c) of the batch is
	// element c*4+r, of the matrix 2+r*4+c.
	require.Equal(t, []float64{1, 2, 1, 5, 5, 6, 2, 6}, parent)
}

// TestCopyWrongWidth: matrices of the batch's row count but another
// column count, wider or narrower, are refused on either side of the copy
// (a check of the rows alone would let them through).
func TestCopyWrongWidth(t *testing.T) {
	b := batchlas.NewBatch[float64](2, 3, 2)
	for _, cols := range []int{4, 2} {
		ms := []*mat.Dense{mat.NewDense(2, 3, nil), mat.NewDense(2, cols, nil)}
		requireArgError(t, gonummat.CopyToDense(b, ms), "gonummat.CopyToDense", "dst", "dst[1] is 2x"+string(rune('0'+cols))+", the batch's matrices 2x3")
		requireArgError(t, gonummat.CopyFromDense(b, ms), "gonummat.CopyFromDense", "ms", "ms[1] is 2x"+string(rune('0'+cols))+", the batch's matrices 2x3")
	}
}
