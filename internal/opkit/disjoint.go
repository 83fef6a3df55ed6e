package opkit

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/overlap"
)

// CheckDisjoint returns a *batchlas.ArgError from op on argument wname
// when the written batch w shares an element with batch o, named oname
// (see batchlas.Overlap), naming one shared element. The same batch given
// twice shares every element: an op whose operand is read and written in
// place passes it once, as one operand.
func CheckDisjoint[T batchlas.Float](op, wname string, w batchlas.Batch[T], oname string, o batchlas.Batch[T]) error {
	lw, lo := layoutOf(w), layoutOf(o)
	ew, eo, ok := overlap.Shared(w.Data, lw, o.Data, lo)
	if !ok {
		return nil
	}
	return Argf(op, wname, "%s and %s share elements (%s is %s): a written operand must not share an element with another operand; give it its own storage",
		wname, oname, overlap.Where(wname, lw, ew), overlap.Where(oname, lo, eo))
}

// CheckWorkspace returns a *batchlas.ArgError from op on "ws" when ws, the
// part of the workspace a kernel uses, shares an element with batch x,
// named name.
func CheckWorkspace[T batchlas.Float](op string, ws []T, name string, x batchlas.Batch[T]) error {
	if len(ws) == 0 {
		return nil
	}
	lw := overlap.Layout{Rows: len(ws), Cols: 1, LD: len(ws), Count: 1}
	lx := layoutOf(x)
	ew, ex, ok := overlap.Shared(ws, lw, x.Data, lx)
	if !ok {
		return nil
	}
	return Argf(op, "ws", "ws and %s share elements (ws[%d] is %s): the workspace must not share an element with an operand",
		name, ew, overlap.Where(name, lx, ex))
}

// layoutOf is b's shape, for package overlap.
func layoutOf[T batchlas.Float](b batchlas.Batch[T]) overlap.Layout {
	return overlap.Layout{Rows: b.Rows, Cols: b.Cols, LD: b.LD, Stride: b.Stride, Count: b.Count}
}
