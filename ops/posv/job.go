package posv

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runFused jobKernel = iota
	runLanes
	runLogDet
)

// job is the state of one posv batch loop, the Body parallel.Run (or the
// Grouper lanes.RunGroups) hands to its workers. It comes from parallel's
// free list, so a call with its workspace supplied allocates nothing: a
// closure over the operands would escape to the heap on every call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	uplo   batchlas.Uplo
	a, b   batchlas.Batch[T]
	info   []int32
	out    batchlas.Vectors[T] // LogDet
}

// Chunk runs matrices [lo, hi).
func (j *job[T]) Chunk(_, lo, hi int) {
	a, b, uplo := j.a, j.b, j.uplo
	n, nrhs := a.Rows, b.Cols
	switch j.kernel {
	case runFused:
		for i := lo; i < hi; i++ {
			m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
			if f := chol.Factor(uplo, m, a.LD, n); f != 0 {
				j.info[i] = int32(f)
				continue
			}
			if nrhs > 0 { // an empty B need not hold storage to index
				chol.Solve(uplo, m, a.LD, n, b.Data[i*b.Stride:], b.LD, nrhs)
			}
		}
	case runLogDet:
		out := j.out
		for i := lo; i < hi; i++ {
			s := 0.0
			if n > 0 {
				diag := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
				for c := 0; c < n; c++ {
					s += math.Log(float64(diag[c*a.LD+c]))
				}
			}
			out.Data[i*out.Stride] = T(2 * s)
		}
	}
}

// Group solves the group of systems from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	lanesGroup(j.uplo, j.a, j.b, j.info, first, buf)
}
