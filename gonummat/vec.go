package gonummat

import (
	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// FromVecs copies the vectors vs into a new tight batch of len(vs) n x 1
// matrices: the right-hand sides of a solve (gesv, posv, potrs, getrs,
// trsm), one per system. The vectors must all be non-nil, non-empty and of
// one length.
func FromVecs[T batchlas.Float](vs []*mat.VecDense) (batchlas.Batch[T], error) {
	const op = "gonummat.FromVecs"
	n, err := vecLen(op, "vs", vs)
	if err != nil {
		return batchlas.Batch[T]{}, err
	}
	if err := fits(op, n, 1, len(vs)); err != nil {
		return batchlas.Batch[T]{}, err
	}
	b := batchlas.NewBatch[T](n, 1, len(vs))
	for i, v := range vs {
		for r := range n {
			b.Data[i*b.Stride+r] = T(v.AtVec(r))
		}
	}
	return b, nil
}

// ToVecs copies every matrix of an n x 1 batch (a solve's solutions) into
// a new *mat.VecDense. A batch of no matrix gives an empty slice; a batch
// with more than one column, or no rows, is an error.
func ToVecs[T batchlas.Float](b batchlas.Batch[T]) ([]*mat.VecDense, error) {
	const op = "gonummat.ToVecs"
	if err := readable(op, b); err != nil {
		return nil, err
	}
	if b.Count > 0 && b.Cols != 1 {
		return nil, opkit.Argf(op, "b", "b's matrices are %dx%d: a vector is one column (use ToDense for matrices)", b.Rows, b.Cols)
	}
	out := make([]*mat.VecDense, b.Count)
	for i := range out {
		out[i] = mat.NewVecDense(b.Rows, nil)
		for r := range b.Rows {
			out[i].SetVec(r, float64(b.At(i, r, 0)))
		}
	}
	return out, nil
}

// VectorsToVecs copies every vector of v (syev's eigenvalues, one vector
// per matrix) into a new *mat.VecDense. No vector gives an empty slice;
// vectors without elements are an error, since a mat.VecDense has at
// least one.
func VectorsToVecs[T batchlas.Float](v batchlas.Vectors[T]) ([]*mat.VecDense, error) {
	const op = "gonummat.VectorsToVecs"
	if err := v.Check(op, "v", false); err != nil {
		return nil, err
	}
	if v.Count > 0 && v.Len == 0 {
		return nil, opkit.Argf(op, "v", "v's vectors have no element: gonum has no vector without elements")
	}
	out := make([]*mat.VecDense, v.Count)
	for i := range out {
		out[i] = mat.NewVecDense(v.Len, nil)
		for j, x := range v.Vector(i) {
			out[i].SetVec(j, float64(x))
		}
	}
	return out, nil
}

// vecLen is the one length of the vectors vs, named arg.
func vecLen(op, arg string, vs []*mat.VecDense) (int, error) {
	if len(vs) == 0 {
		return 0, opkit.Argf(op, arg, "%s has no vector, so the batch's shape is unknown: use batchlas.NewBatch(n, 1, 0) for an empty batch", arg)
	}
	n := 0
	for i, v := range vs {
		switch {
		case v == nil:
			return 0, opkit.Argf(op, arg, "%s[%d] is nil", arg, i)
		case v.IsEmpty():
			return 0, opkit.Argf(op, arg, "%s[%d] is an empty mat.VecDense (no storage)", arg, i)
		}
		if i == 0 {
			n = v.Len()
		} else if v.Len() != n {
			return 0, opkit.Argf(op, arg, "%s[%d] has length %d but %s[0] has %d: the vectors of a batch have one length", arg, i, v.Len(), arg, n)
		}
	}
	return n, nil
}
