package potrs

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
	"github.com/batchlas-go/batchlas/internal/simd"
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

// prefetchAbove is the order above which the fused kernel asks for the
// next system ahead: at 24 and 32 with one right-hand side that was 15%
// and 22% faster, at 16 (a factor of 2 KiB) 5% slower (float64, Intel
// Xeon guest).
const prefetchAbove = 16

// Chunk solves systems [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	a, b := j.a, j.b
	n, nrhs := b.Rows, b.Cols
	switch j.kernel {
	case runFused:
		tri := 2
		if j.uplo == batchlas.Lower {
			tri = 1
		}
		for i := lo; i < hi; i++ {
			if i+1 < hi && n > prefetchAbove {
				// The next system's factor triangle and B, while this
				// one is solved: the solve reads the factor across its
				// columns, which the hardware prefetcher does not follow.
				if a.Stride != 0 {
					simd.Prefetch(a.Data[(i+1)*a.Stride:], n, a.LD, n, tri)
				}
				simd.Prefetch(b.Data[(i+1)*b.Stride:], n, b.LD, nrhs, 0)
			}
			chol.Solve(j.uplo, a.Data[i*a.Stride:], a.LD, n, b.Data[i*b.Stride:], b.LD, nrhs)
		}
	default:
		j.vendor(w, lo, hi)
	}
}
