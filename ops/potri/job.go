package potri

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/tri"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runPerMatrix jobKernel = iota
	runVendor
	runLanes // lanes.go: the job is a lanes.Grouper
)

// job is the state of one potri batch loop, the Body parallel.Run hands
// to its workers. It comes from parallel's free list, so a call
// allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	lower  bool
	a      batchlas.Batch[T]
	info   []int32
}

// runJob runs kernel over the batch of a, writing each matrix's info.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, lower bool, a batchlas.Batch[T], info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.lower, j.a, j.info = kernel, lower, a, info
	return parallel.Run(ctx, a.Count, flopsPerMatrix(a.Rows), j)
}

// Chunk inverts matrices [lo, hi); a singular factor is reported and left
// as it was.
func (j *job[T]) Chunk(_, lo, hi int) {
	a, n := j.a, j.a.Rows
	for i := lo; i < hi; i++ {
		ai := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		if j.info[i] = tri.Singular(n, ai, a.LD); j.info[i] != 0 {
			continue
		}
		// A factor with an Inf or NaN in its triangle goes to the
		// per-matrix kernel even under vendor: gonum's BLAS skips
		// products with a zero that IEEE arithmetic makes NaN with an
		// Inf (Dpotri made finite inverses from factors holding Inf).
		if j.kernel == runVendor && condest.Finite(ai, a.LD, n, j.part()) {
			j.vendor(ai)
			continue
		}
		tri.Inverse(j.lower, n, ai, a.LD)
		tri.TimesTranspose(j.lower, n, ai, a.LD)
	}
}

// part is the factor's triangle as condest.Finite names it.
func (j *job[T]) part() byte {
	if j.lower {
		return 'L'
	}
	return 'U'
}
