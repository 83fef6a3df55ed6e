package geqrf

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runUnblocked jobKernel = iota
	runBlocked
	runVendor
	runLanes // through Group, not Chunk
)

// job is the state of one geqrf batch loop, the Body parallel.Run hands
// to its workers. It comes from parallel's free list, so a call with its
// workspace supplied allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	a      batchlas.Batch[T]
	tau    batchlas.Vectors[T]
	nb     int
	ws     []T // blocked: per-worker scratch
	slot   int // its stride

	buf []float64 // vendor: per-worker row-major copies and gonum's work
}

// matrix is the column-major storage of matrix i of a.
func matrix[T batchlas.Float](a batchlas.Batch[T], i int) []T {
	o := i * a.Stride
	return a.Data[o : o+(a.Cols-1)*a.LD+a.Rows]
}

// factors is the first k entries of vector i of tau.
func factors[T batchlas.Float](tau batchlas.Vectors[T], i, k int) []T {
	o := i * tau.Stride
	return tau.Data[o : o+k : o+k]
}

// Chunk factors matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	a := j.a
	m, n, ld := a.Rows, a.Cols, a.LD
	k := min(m, n)
	switch j.kernel {
	case runUnblocked:
		for i := lo; i < hi; i++ {
			qr.Geqr2(m, n, matrix(a, i), ld, factors(j.tau, i, k), nil)
		}
	case runBlocked:
		nb := max(1, min(j.nb, k))
		s := j.ws[w*j.slot : (w+1)*j.slot]
		t, work := s[:nb*nb], s[nb*nb:]
		for i := lo; i < hi; i++ {
			qr.GeqrfBlocked(m, n, matrix(a, i), ld, factors(j.tau, i, k), j.nb, t, work)
		}
	case runVendor:
		j.vendor(w, lo, hi)
	}
}

// runJob runs kernel over the batch of a on a recycled job; ws holds
// slot elements per worker.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, a batchlas.Batch[T], tau batchlas.Vectors[T], nb int, ws []T, slot int) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.tau, j.nb, j.ws, j.slot = kernel, a, tau, nb, ws, slot
	work := flopsPerMatrix(a.Rows, a.Cols)
	if slot > 0 {
		return parallel.RunScratch(ctx, a.Count, work, len(ws)/slot, j)
	}
	return parallel.Run(ctx, a.Count, work, j)
}
