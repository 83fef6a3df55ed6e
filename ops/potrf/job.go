package potrf

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runTinyUnrolled jobKernel = iota // tiny, orders up to unrollMax
	runTinyPairs                     // tiny above unrollMax, two matrices in lockstep
	runLowerInPlace                  // perMatrix, Lower: factor each matrix where it lies
	runCopied                        // perMatrix: Upper through a transposed copy, Lower through a copy (copiesLower)
	runVendor
	runBlockedDiag     // blocked's batch-wide path: the step's diagonal blocks
	runBlockedTrailing // and the uplo triangles of its trailing diagonal blocks
	runLanes
)

// lowerFactor names the lower-triangle kernel perMatrix runs.
type lowerFactor uint8

const (
	factorUnblocked lowerFactor = iota // lowerPanel over the whole matrix
	factorLpanel                       // lpanelLower with panel columns
)

// job is the state of one potrf batch loop, the Body parallel.Run (or
// the Grouper lanes.RunGroups) hands to its workers. It comes from
// parallel's free list, so a call with its workspace supplied allocates
// nothing: a closure over the operands would escape to the heap on every
// call, and so would a generic kernel's function value.
type job[T batchlas.Float] struct {
	kernel jobKernel
	uplo   batchlas.Uplo
	a      batchlas.Batch[T]
	ws     []T
	info   []int32

	rs, cs int         // tiny, unrolled: element (i, j) of the lower factor is at i*rs + j*cs
	factor lowerFactor // perMatrix
	panel  int         // perMatrix with factorLpanel
	nn     int         // perMatrix, copied: the per-worker scratch stride
	k0, kb int         // blocked: the step's first column and its width
	gld    int         // lanes: the group's leading dimension, in vectors
}

// Chunk runs matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	a, info := j.a, j.info
	n, ld, stride := a.Rows, a.LD, a.Stride
	switch j.kernel {
	case runTinyUnrolled:
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			f := tinyUnrolled(n, m, j.rs, j.cs)
			if f == tinyRedo {
				f = tinyCareful(m, ld, n, j.uplo)
			}
			info[i] = int32(f)
		}
	case runTinyPairs:
		tinyPairs(j.uplo, a, info, lo, hi)
	case runLowerInPlace:
		for i := lo; i < hi; i++ {
			info[i] = int32(j.lower(a.Data[i*stride:i*stride+(n-1)*ld+n], ld, n))
		}
	case runCopied:
		ldb := scratchLD[T](n)
		buf := j.ws[w*j.nn : w*j.nn+(n-1)*ldb+n]
		upper := j.uplo == batchlas.Upper
		for i := lo; i < hi; i++ {
			m := a.Data[i*stride : i*stride+(n-1)*ld+n]
			if upper {
				upperToLower(buf, ldb, m, ld, n)
			} else {
				copyLower(buf, ldb, m, ld, n)
			}
			info[i] = int32(j.lower(buf, ldb, n))
			if upper {
				lowerToUpper(m, ld, buf, ldb, n)
			} else {
				copyLower(m, ld, buf, ldb, n)
			}
		}
	case runVendor:
		vendorRange(j.uplo, a, info, lo, hi)
	case runBlockedDiag:
		blockedDiag(j.uplo, a, info, j.k0, j.kb, lo, hi)
	case runBlockedTrailing:
		blockedTrailing(j.uplo, a, j.k0, j.k0+j.kb, lo, hi)
	}
}

// lower runs the job's lower-triangle kernel on one matrix.
func (j *job[T]) lower(m []T, ld, n int) int {
	if j.factor == factorLpanel {
		return lpanelLower(m, ld, n, j.panel)
	}
	return lowerPanel(m, ld, 0, n, n)
}

// Group factors the group of matrices from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	a, n, L, gld := j.a, j.a.Rows, lanes.Lanes[T](), j.gld
	ga, ginfo := buf[:n*gld*L], buf[n*gld*L:n*gld*L+L]
	count := min(L, a.Count-first)
	lanes.Gather(ga, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	lanes.PadIdentity(ga, n, gld, count)
	lanes.Chol(j.uplo == batchlas.Lower, ga, nil, n, 0, gld, ginfo)
	lanes.Scatter(a.Data[first*a.Stride:], ga, a.Stride, a.LD, n, n, uint64(1)<<count-1, gld)
	for l := range count {
		j.info[first+l] = int32(ginfo[l])
	}
}
