package potrs

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runFused jobKernel = iota
	runVendorColumn
	runVendorCopied
)

// job is the state of one potrs batch loop, the Body parallel.Run hands
// to its workers. It comes from parallel's free list, so a call with its
// workspace supplied allocates nothing: a closure over the operands would
// escape to the heap on every call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	uplo   batchlas.Uplo
	a, b   batchlas.Batch[T]
	wsd    []float64 // vendor, several columns: per-worker transposed copies of B_i
	per    int       // their stride
}

// Chunk solves systems [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	a, b := j.a, j.b
	n, nrhs := b.Rows, b.Cols
	switch j.kernel {
	case runFused:
		for i := lo; i < hi; i++ {
			chol.Solve(j.uplo, a.Data[i*a.Stride:], a.LD, n, b.Data[i*b.Stride:], b.LD, nrhs)
		}
	default:
		j.vendor(w, lo, hi)
	}
}
