package getrs

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lusolve"
)

// jobKernel names the loop body a job runs.
type jobKernel uint8

const (
	runPerMatrix jobKernel = iota
	runVector
	runSwap // nested: the row interchanges
	runVendor
)

// job is the state of one getrs batch loop, the Body parallel.Run hands
// to its workers. It holds the problem and operands by value and comes
// from parallel's free list, so a call with its workspace supplied
// allocates nothing: a closure over them would escape to the heap on every
// call.
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem
	a, b   batchlas.Batch[T]
	ipiv   batchlas.Vectors[int32]
	ws     []T
	per    int // vector: the per-worker scratch stride
}

// Chunk solves systems [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	p, a, b, ipiv := &j.p, j.a, j.b, j.ipiv
	switch j.kernel {
	case runPerMatrix:
		trans := p.trans == batchlas.Trans
		for i := lo; i < hi; i++ {
			lusolve.Solve(trans, a.Data[i*a.Stride:], a.LD, p.n, pivots(ipiv, i, p.n), b.Data[i*b.Stride:], b.LD, p.nrhs)
		}
	case runVector:
		j.vector(w, lo, hi)
	case runSwap:
		for i := lo; i < hi; i++ {
			bi, piv := b.Data[i*b.Stride:], pivots(ipiv, i, p.n)
			if p.trans == batchlas.Trans {
				lusolve.Backward(bi, b.LD, p.n, p.nrhs, piv)
			} else {
				lusolve.Forward(bi, b.LD, p.n, p.nrhs, piv)
			}
		}
	case runVendor:
		j.vendor(lo, hi)
	}
}
