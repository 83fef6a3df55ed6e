package getri

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/pivots"
	"github.com/batchlas-go/batchlas/internal/tri"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runPerMatrix jobKernel = iota
	runVendor
	runLanes // lanes.go: the job is a lanes.Grouper
)

// job is the state of one getri batch loop, the Body parallel.RunScratch
// hands to its workers. It comes from parallel's free list, so a call with
// its workspace supplied allocates nothing (a closure would escape).
type job[T batchlas.Float] struct {
	kernel jobKernel
	a      batchlas.Batch[T]
	ipiv   batchlas.Vectors[int32]
	ws     []T // per-worker scratch, slot elements each
	slot   int
	info   []int32
}

// runJob runs kernel over the batch of a with slot elements of ws per
// worker, writing each matrix's info.
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, slot int, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.ws, j.slot, j.info = kernel, a, ipiv, ws, slot, info
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(a.Rows), len(ws)/slot, j)
}

// Chunk inverts matrices [lo, hi) on worker w; a singular factor is
// reported and left as it was.
func (j *job[T]) Chunk(w, lo, hi int) {
	a, n := j.a, j.a.Rows
	work := j.ws[w*j.slot : (w+1)*j.slot]
	for i := lo; i < hi; i++ {
		ai := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		if j.info[i] = tri.Singular(n, ai, a.LD); j.info[i] != 0 {
			continue
		}
		piv := pivots.Of(j.ipiv, i, n)
		// A factor holding Inf or NaN goes to the per-matrix kernel even
		// under vendor: gonum's BLAS skips products with a zero that IEEE
		// arithmetic makes NaN with an Inf (Dgetri made finite inverses
		// from factors holding Inf).
		if j.kernel == runVendor && condest.Finite(ai, a.LD, n, 0) {
			j.vendor(ai, piv, work)
			continue
		}
		invert(n, ai, a.LD, piv, work)
	}
}
