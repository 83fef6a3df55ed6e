package invkit

import (
	"context"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condopt"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/ops/gecon"
)

// Copy copies every n x n A_i into X_i on the workers, a part of the
// matrices each; a may be a broadcast. It allocates nothing. An
// interrupted copy returns parallel's *batchlas.InterruptedError.
func Copy[T batchlas.Float](ctx context.Context, x, a batchlas.Batch[T]) error {
	j := parallel.Get[copyJob[T]]()
	defer parallel.Put(j)
	j.x, j.a = x, a
	return parallel.Run(ctx, a.Count, float64(a.Rows*a.Rows), j)
}

// copyJob is Copy's loop body, from parallel's free list (a closure would
// escape to the heap on every call).
type copyJob[T batchlas.Float] struct{ x, a batchlas.Batch[T] }

// Chunk copies matrices [lo, hi).
func (j *copyJob[T]) Chunk(_, lo, hi int) {
	x, a, n := j.x, j.a, j.a.Rows
	for i := lo; i < hi; i++ {
		for c := range n {
			copy(x.Data[i*x.Stride+c*x.LD:i*x.Stride+c*x.LD+n], a.Data[i*a.Stride+c*a.LD:i*a.Stride+c*a.LD+n])
		}
	}
}

// SetNaN fills X_i with NaN: the output of a matrix with no inverse.
func SetNaN[T batchlas.Float](x batchlas.Batch[T], i int) {
	n, nan := x.Rows, T(math.NaN())
	for c := range n {
		col := x.Data[i*x.Stride+c*x.LD : i*x.Stride+c*x.LD+n]
		for r := range col {
			col[r] = nan
		}
	}
}

// FinishCheck gives info n+1 to the inverted matrices whose exact
// reciprocal condition number 1/(||A_i||_1 ||X_i||_1) is below c's
// threshold or NaN, c.Anorm holding the ||A_i||_1 (its op's norm of A).
// The inverses are written by then, so it runs to its end whatever ctx
// says: an interrupted check would leave a completed call half-checked.
func FinishCheck[T batchlas.Float](ctx context.Context, c *condopt.Check[T], x batchlas.Batch[T], info []int32) error {
	rcond := make([]T, x.Count)
	if err := gecon.Norm(context.WithoutCancel(ctx), batchlas.OneNorm, x, rcond); err != nil {
		return err
	}
	for i, xn := range rcond {
		rcond[i] = 1 / (c.Anorm[i] * xn)
	}
	c.Finish(info, rcond)
	return nil
}
