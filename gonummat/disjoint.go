package gonummat

import (
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// disjoint refuses a copy between the batch b (named bname) and the
// matrices ms (named msName) when some matrix of ms shares an element with
// b: the copy reads one while writing the other, so it would return nil
// with scrambled data. The written argument is always dst (the batch of
// CopyFromDense, the matrices of CopyToDense), and the error names it.
//
// Only a float64 batch can share storage with a mat.Dense, whose elements
// are float64. The test is batchlas.Overlap's, element by element: a
// mat.Dense is a batch of one matrix, transposed (its rows are the view's
// columns, LD its stride), so padding shared between the two is no
// overlap. Its cost is O(rows) per matrix of ms, never O(elements).
func disjoint[T batchlas.Float](op, bname string, b batchlas.Batch[T], msName string, ms []*mat.Dense) error {
	b64, ok := any(b).(batchlas.Batch[float64])
	if !ok || b64.Empty() {
		return nil
	}
	other := bname // the argument whose storage dst must not use
	if bname == "dst" {
		other = msName
	}
	for i, m := range ms {
		if batchlas.Overlap(b64, denseView(m)) {
			return opkit.Argf(op, "dst", "%s and %s[%d] share storage: the copy would overwrite elements before it reads them; dst must have storage of its own, not %s's",
				bname, msName, i, other)
		}
	}
	return nil
}

// denseView is m's elements as a batch of one matrix, transposed: row r of
// m is column r of the view. m is not empty (sameShapes checked it has the
// batch's shape, and b is not empty).
func denseView(m *mat.Dense) batchlas.Batch[float64] {
	raw := m.RawMatrix()
	n := (raw.Rows-1)*raw.Stride + raw.Cols
	return batchlas.Batch[float64]{Data: raw.Data[:n:n], Rows: raw.Cols, Cols: raw.Rows, LD: raw.Stride, Count: 1}
}
