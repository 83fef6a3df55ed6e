package batchlas

import "github.com/batchlas-go/batchlas/internal/overlap"

// Overlap reports whether batches x and y share an element: whether some
// element (r, c) of some matrix of x, r < x.Rows, c < x.Cols, is the same
// memory as some element of some matrix of y. Both batches must have passed
// Check. Elements are what counts, not address ranges: padding between
// columns (LD > Rows) and between matrices (Stride > LD*Cols) belongs to
// neither batch, so two sub-matrix views of one parent, [A | B] stacked in
// the same columns of a larger LD, do not overlap although their address
// ranges interleave. A batch of Stride 0 (a broadcast, see Broadcast) is
// its one matrix. Slices of different arrays never overlap.
//
// This is the rule every op applies to its operands: a written operand may
// share no element with another operand, nor a workspace with any operand.
// VectorsAsBatch puts a Vectors in the same terms.
//
// It reads no element and does not walk the elements: it costs
// O(columns*count) at worst, and O(columns) for views of one parent batch
// (the same Stride), whatever the batch size.
func Overlap[T Float](x, y Batch[T]) bool {
	_, _, ok := shared(x, y)
	return ok
}

// shared finds an element x and y share: its offset from x.Data's first
// element and from y.Data's.
func shared[T Float](x, y Batch[T]) (ex, ey int, ok bool) {
	return overlap.Shared(x.Data, layoutOf(x), y.Data, layoutOf(y))
}

// layoutOf is b's shape, for package overlap.
func layoutOf[T Float](b Batch[T]) overlap.Layout {
	return overlap.Layout{Rows: b.Rows, Cols: b.Cols, LD: b.LD, Stride: b.Stride, Count: b.Count}
}
