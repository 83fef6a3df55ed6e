package gonummat

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// FromDense copies ms into a new tight batch of len(ms) matrices (LD =
// rows, Stride = rows*cols): matrix i of the batch is ms[i]. The matrices
// must all be non-nil, non-empty and of one shape; an empty ms is an error
// too, since it gives the batch no shape (batchlas.NewBatch(rows, cols, 0)
// makes an empty batch).
func FromDense[T batchlas.Float](ms []*mat.Dense) (batchlas.Batch[T], error) {
	const op = "gonummat.FromDense"
	r, c, err := denseShape(op, "ms", ms)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := fits(op, r, c, len(ms)); err != nil {
		return batchlas.Batch[T]{}, err
	}
	b := batchlas.NewBatch[T](r, c, len(ms))
	for i, m := range ms {
		fromDense(b, i, m)
	}
	return b, nil
}

// CopyFromDense copies ms[i] into matrix i of dst, for every i, leaving
// the padding of dst as it is. len(ms) must be dst.Count and every ms[i]
// dst.Rows x dst.Cols; dst must pass Check as a written operand (so it may
// not be a broadcast of several matrices) and share no element with any
// ms[i] (an *batchlas.ArgError on dst says which). Nothing is written
// unless every argument is valid.
func CopyFromDense[T batchlas.Float](dst batchlas.Batch[T], ms []*mat.Dense) error {
	const op = "gonummat.CopyFromDense"
	if err := dst.Check(op, "dst", true); err != nil {
		return err
	}
	if err := sameShapes(op, "ms", ms, dst); err != nil {
		return err
	}
	if err := disjoint(op, "dst", dst, "ms", ms); err != nil {
		return err
	}
	for i, m := range ms {
		fromDense(dst, i, m)
	}
	return nil
}

// ToDense copies every matrix of b into a new *mat.Dense; a broadcast
// gives Count separate copies of its matrix. A batch of no matrix gives an
// empty slice; matrices without elements (0 rows or columns) are an error,
// since a mat.Dense has at least one row and one column.
func ToDense[T batchlas.Float](b batchlas.Batch[T]) ([]*mat.Dense, error) {
	const op = "gonummat.ToDense"
	if err := readable(op, b); err != nil {
		return nil, err
	}
	out := make([]*mat.Dense, b.Count)
	for i := range out {
		out[i] = mat.NewDense(b.Rows, b.Cols, nil)
		toDense(out[i], b, i)
	}
	return out, nil
}

// CopyToDense copies matrix i of b into dst[i], for every i, allocating
// nothing. len(dst) must be b.Count and every dst[i] b.Rows x b.Cols,
// sharing no storage with b. Nothing is written unless every argument is
// valid.
//
// No dst[i] may share an element with b (an *batchlas.ArgError on dst
// says which).
func CopyToDense[T batchlas.Float](b batchlas.Batch[T], dst []*mat.Dense) error {
	const op = "gonummat.CopyToDense"
	if err := b.Check(op, "b", false); err != nil {
		return err
	}
	if err := sameShapes(op, "dst", dst, b); err != nil {
		return err
	}
	if err := disjoint(op, "b", b, "dst", dst); err != nil {
		return err
	}
	for i, d := range dst {
		toDense(d, b, i)
	}
	return nil
}

// FromSym copies the symmetric matrices ms into a new tight batch of
// len(ms) n x n matrices, both triangles filled, so the batch may be
// passed to potrf with either uplo. The matrices must all be non-nil,
// non-empty and of one order.
func FromSym[T batchlas.Float](ms []*mat.SymDense) (batchlas.Batch[T], error) {
	const op = "gonummat.FromSym"
	if len(ms) == 0 {
		return batchlas.Batch[T]{}, opkit.Argf(op, "ms", "ms has no matrix, so the batch's order is unknown: use batchlas.NewBatch(n, n, 0) for an empty batch")
	}
	n := 0
	for i, m := range ms {
		switch {
		case m == nil:
			return batchlas.Batch[T]{}, opkit.Argf(op, "ms", "ms[%d] is nil", i)
		case m.IsEmpty():
			return batchlas.Batch[T]{}, opkit.Argf(op, "ms", "ms[%d] is an empty mat.SymDense (order 0, no storage)", i)
		case i == 0:
			n = m.SymmetricDim()
		case m.SymmetricDim() != n:
			return batchlas.Batch[T]{}, opkit.Argf(op, "ms", "ms[%d] has order %d but ms[0] has order %d: the matrices of a batch have one shape", i, m.SymmetricDim(), n)
		}
	}
	if err := fits(op, n, n, len(ms)); err != nil {
		return batchlas.Batch[T]{}, err
	}
	b := batchlas.NewBatch[T](n, n, len(ms))
	for i, m := range ms {
		for c := range n {
			for r := range n {
				b.Set(i, r, c, T(m.At(r, c)))
			}
		}
	}
	return b, nil
}

// ToTri copies the uplo triangle of every matrix of the square batch b
// into a new *mat.TriDense of that kind, reading nothing of the other
// triangle: the way to read potrf's factors, since potrf leaves the other
// triangle as it was. Like ToDense, a batch of no matrix gives an empty
// slice and matrices of order 0 are an error.
func ToTri[T batchlas.Float](b batchlas.Batch[T], uplo batchlas.Uplo) ([]*mat.TriDense, error) {
	const op = "gonummat.ToTri"
	if err := uplo.Check(op); err != nil {
		return nil, err
	}
	if err := readable(op, b); err != nil {
		return nil, err
	}
	if b.Rows != b.Cols {
		return nil, opkit.Argf(op, "b", "b's matrices are %dx%d: a triangular matrix is square", b.Rows, b.Cols)
	}
	kind := mat.Upper
	if uplo == batchlas.Lower {
		kind = mat.Lower
	}
	out := make([]*mat.TriDense, b.Count)
	for i := range out {
		t := mat.NewTriDense(b.Rows, kind, nil)
		for c := range b.Cols {
			lo, hi := 0, c+1 // rows of column c in the triangle
			if uplo == batchlas.Lower {
				lo, hi = c, b.Rows
			}
			for r := lo; r < hi; r++ {
				t.SetTri(r, c, float64(b.At(i, r, c)))
			}
		}
		out[i] = t
	}
	return out, nil
}

// readable validates b as the source of new gonum matrices: a valid
// batch whose matrices, if it has any, have elements.
func readable[T batchlas.Float](op string, b batchlas.Batch[T]) error {
	if err := b.Check(op, "b", false); err != nil {
		return err
	}
	if b.Count > 0 && (b.Rows == 0 || b.Cols == 0) {
		return opkit.Argf(op, "b", "b's matrices are %dx%d: gonum has no matrix without elements", b.Rows, b.Cols)
	}
	return nil
}

// denseShape is the one shape of the matrices ms, named arg.
func denseShape(op, arg string, ms []*mat.Dense) (r, c int, err error) {
	if len(ms) == 0 {
		return 0, 0, opkit.Argf(op, arg, "%s has no matrix, so the batch's shape is unknown: use batchlas.NewBatch(rows, cols, 0) for an empty batch", arg)
	}
	for i, m := range ms {
		switch {
		case m == nil:
			return 0, 0, opkit.Argf(op, arg, "%s[%d] is nil", arg, i)
		case m.IsEmpty():
			return 0, 0, opkit.Argf(op, arg, "%s[%d] is an empty mat.Dense (0x0, no storage)", arg, i)
		}
		mr, mc := m.Dims()
		if i == 0 {
			r, c = mr, mc
		} else if mr != r || mc != c {
			return 0, 0, opkit.Argf(op, arg, "%s[%d] is %dx%d but %s[0] is %dx%d: the matrices of a batch have one shape", arg, i, mr, mc, arg, r, c)
		}
	}
	return r, c, nil
}

// sameShapes checks that ms, named arg, holds one non-nil matrix of b's
// shape per matrix of b.
func sameShapes[T batchlas.Float](op, arg string, ms []*mat.Dense, b batchlas.Batch[T]) error {
	if len(ms) != b.Count {
		return opkit.Argf(op, arg, "%s has %d matrices, the batch %d: give one per matrix", arg, len(ms), b.Count)
	}
	for i, m := range ms {
		if m == nil {
			return opkit.Argf(op, arg, "%s[%d] is nil", arg, i)
		}
		if r, c := m.Dims(); r != b.Rows || c != b.Cols {
			return opkit.Argf(op, arg, "%s[%d] is %dx%d, the batch's matrices %dx%d", arg, i, r, c, b.Rows, b.Cols)
		}
	}
	return nil
}

// fits refuses count r x c matrices that are more elements than an int can
// count, which NewBatch would panic on: len(ms) pointers to one large
// matrix can describe that much.
func fits(op string, r, c, count int) error {
	if c > 0 && r > math.MaxInt/c || r*c > 0 && count > math.MaxInt/(r*c) {
		return opkit.Argf(op, "ms", "%d matrices of %dx%d are more elements than an int can count", count, r, c)
	}
	return nil
}

// fromDense copies m, row-major, into matrix i of b, column-major.
func fromDense[T batchlas.Float](b batchlas.Batch[T], i int, m *mat.Dense) {
	raw := m.RawMatrix()
	for r := range raw.Rows {
		row := raw.Data[r*raw.Stride : r*raw.Stride+raw.Cols]
		for c, v := range row {
			b.Data[i*b.Stride+c*b.LD+r] = T(v)
		}
	}
}

// toDense copies matrix i of b, column-major, into d, row-major.
func toDense[T batchlas.Float](d *mat.Dense, b batchlas.Batch[T], i int) {
	raw := d.RawMatrix()
	for r := range raw.Rows {
		row := raw.Data[r*raw.Stride : r*raw.Stride+raw.Cols]
		for c := range row {
			row[c] = float64(b.Data[i*b.Stride+c*b.LD+r])
		}
	}
}
