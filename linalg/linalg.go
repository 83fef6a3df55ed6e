package linalg

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// checkBatch validates b as the read-only argument name of op: the ops'
// own Check, with the argument's name put in front of a message that does
// not start with it, and a message of its own for the zero Batch{}.
func checkBatch[T batchlas.Float](op, name string, b batchlas.Batch[T]) error {
	if b.Data == nil && b.Rows == 0 && b.Cols == 0 && b.LD == 0 && b.Stride == 0 && b.Count == 0 {
		return opkit.Argf(op, name, "%s is the zero Batch (no matrices, LD 0): make it with batchlas.NewBatch, WrapBatch or WrapStrided (an empty batch of n x n matrices is batchlas.NewBatch(n, n, 0))", name)
	}
	err := b.Check(op, name, false)
	var ae *batchlas.ArgError
	if errors.As(err, &ae) && !strings.HasPrefix(ae.Msg, name+" ") {
		ae.Msg = name + ": " + ae.Msg
	}
	return err
}

// checkSquare is checkBatch for a batch of square matrices.
func checkSquare[T batchlas.Float](op, name string, a batchlas.Batch[T]) error {
	if err := checkBatch(op, name, a); err != nil {
		return err
	}
	if a.Rows != a.Cols {
		return opkit.Argf(op, name, "%s is %dx%d: want square matrices (rows == cols)", name, a.Rows, a.Cols)
	}
	return nil
}

// checkRHS validates b as the right-hand sides of op for the square
// matrices a (argument aname): n x nrhs, one per matrix of a.
func checkRHS[T batchlas.Float](op, aname string, a, b batchlas.Batch[T]) error {
	if err := checkBatch(op, "b", b); err != nil {
		return err
	}
	switch {
	case b.Rows != a.Rows:
		return opkit.Argf(op, "b", "b has %d rows but %s is %dx%d: want b of %d x nrhs, one row per row of %s", b.Rows, aname, a.Rows, a.Cols, a.Rows, aname)
	case b.Count != a.Count:
		return opkit.Argf(op, "b", "b.Count %d != %s.Count %d: want one right-hand side matrix per matrix of %s (batchlas.Broadcast repeats one)", b.Count, aname, a.Count, aname)
	}
	return nil
}

// alloc returns a new tight batch of count rows x cols zeros, or an
// *ArgError on name when the storage is more elements than an int can
// count (only a broadcast input describes so many matrices).
func alloc[T batchlas.Float](op, name string, rows, cols, count int) (batchlas.Batch[T], error) {
	if rows > 0 && cols > 0 && count > math.MaxInt/rows/cols {
		return batchlas.Batch[T]{}, opkit.Argf(op, name, "%s: %d matrices of %dx%d are more elements than an int can count", name, count, rows, cols)
	}
	return batchlas.NewBatch[T](rows, cols, count), nil
}

// allocVectors is alloc for count vectors of length elements.
func allocVectors[E batchlas.Elem](op, name string, length, count int) (batchlas.Vectors[E], error) {
	if length > 0 && count > math.MaxInt/length {
		return batchlas.Vectors[E]{}, opkit.Argf(op, name, "%s: %d vectors of %d elements are more elements than an int can count", name, count, length)
	}
	return batchlas.NewVectors[E](length, count), nil
}

// own returns a copy of the validated batch b (argument name of op) in new
// tight storage with one matrix per element of the batch: a broadcast is
// expanded, since the op will write the copy.
func own[T batchlas.Float](ctx context.Context, op, name string, b batchlas.Batch[T]) (batchlas.Batch[T], error) {
	c, err := alloc[T](op, name, b.Rows, b.Cols, b.Count)
	if err != nil || b.Empty() {
		return c, err
	}
	copyMatrices(ctx, c, b)
	return c, nil
}

// copyMatrices copies every matrix of src into dst (the same shape and
// count; src may be a broadcast), spread over ctx's workers: a large
// batch of small matrices costs more to copy than to factor on one
// core. It always completes, whatever ctx says, since the op that follows
// reports interruption. Tight batches are copied in one piece per chunk.
func copyMatrices[T batchlas.Float](ctx context.Context, dst, src batchlas.Batch[T]) {
	_ = parallel.For(uncancelled(ctx), src.Count, float64(src.Rows*src.Cols), func(_, lo, hi int) {
		copyRange(dst, src, lo, hi)
	})
}

// copyRange copies matrices [lo, hi) of src into dst (the same shape):
// one copy when both are tight, else a column at a time (small matrices'
// columns a copy each cost more than the copying).
func copyRange[T batchlas.Float](dst, src batchlas.Batch[T], lo, hi int) {
	rows, cols := src.Rows, src.Cols
	size := rows * cols
	tight := func(b batchlas.Batch[T]) bool { return b.LD == rows && b.Stride == size }
	if tight(src) && tight(dst) {
		copy(dst.Data[lo*size:hi*size], src.Data[lo*size:hi*size])
		return
	}
	for i := lo; i < hi; i++ {
		simd.CopyColumns(dst.Data[i*dst.Stride:], dst.LD, src.Data[i*src.Stride:], src.LD, rows, cols)
	}
}

// uncancelled is ctx without its cancellation (its worker cap and pins
// kept), or Background for a nil ctx, which the entry points accept.
func uncancelled(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return context.WithoutCancel(ctx)
}

// results reports whether err comes with results (nil, a
// *batchlas.NumericalError or a *batchlas.InterruptedError), and which
// matrices of count are not results: failed lists the failures, and every
// matrix from on, the ones an interrupted call did not complete.
func results(err error, count int) (ok bool, failed []int, from int) {
	if err == nil {
		return true, nil, count
	}
	var ie *batchlas.InterruptedError
	if errors.As(err, &ie) {
		if ie.Failed != nil {
			failed = ie.Failed.Index
		}
		return true, failed, min(ie.Completed, count)
	}
	var ne *batchlas.NumericalError
	if errors.As(err, &ne) {
		return true, ne.Index, count
	}
	return false, nil, 0
}

// spoil sets to NaN the matrices of out listed in failed and every one
// from from on: the outputs that are not results.
func spoil[T batchlas.Float](out batchlas.Batch[T], failed []int, from int) {
	nan := T(math.NaN())
	fill := func(i int) {
		for col := range out.Cols {
			o := i*out.Stride + col*out.LD
			for k := range out.Data[o : o+out.Rows] {
				out.Data[o+k] = nan
			}
		}
	}
	if out.Empty() {
		return
	}
	for _, i := range failed {
		if i >= 0 && i < from {
			fill(i)
		}
	}
	for i := from; i < out.Count; i++ {
		fill(i)
	}
}

// spoilVectors is spoil for a batch of vectors.
func spoilVectors[T batchlas.Float](out batchlas.Vectors[T], failed []int, from int) {
	nan := T(math.NaN())
	if out.Empty() {
		return
	}
	fill := func(i int) {
		v := out.Vector(i)
		for k := range v {
			v[k] = nan
		}
	}
	for _, i := range failed {
		if i >= 0 && i < from {
			fill(i)
		}
	}
	for i := from; i < out.Count; i++ {
		fill(i)
	}
}
