package ormqr

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
)

type jobKernel uint8

const (
	runUnblocked jobKernel = iota
	runBlocked
	runVendor
)

// job is one ormqr batch loop (a pooled Body: no closure, no allocation).
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem
	nb     int
	a, c   batchlas.Batch[T]
	tau    batchlas.Vectors[T]
	ws     []T
	per    int
}

// runJob applies Q to every matrix of c, each on one worker, worker w
// using ws[w*per:(w+1)*per].
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem, nb int, a batchlas.Batch[T], tau batchlas.Vectors[T], c batchlas.Batch[T], ws []T) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	slots := parallel.Workers(ctx)
	j.kernel, j.p, j.nb, j.a, j.tau, j.c, j.ws, j.per = kernel, *p, nb, a, tau, c, ws, len(ws)/max(slots, 1)
	return parallel.RunScratch(ctx, c.Count, flopsPerMatrix(p), slots, j)
}

// taus is tau vector i's first k elements.
func taus[T batchlas.Float](tau batchlas.Vectors[T], i, k int) []T {
	o := i * tau.Stride
	return tau.Data[o : o+k : o+k]
}

// Chunk applies Q to matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	p, a, c := &j.p, j.a, j.c
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		ai, ci := a.Data[i*a.Stride:], c.Data[i*c.Stride:]
		t := taus(j.tau, i, p.k)
		switch j.kernel {
		case runUnblocked:
			qr.Orm2r(p.left, p.trans, p.m, p.n, p.k, ai, a.LD, t, ci, c.LD, scratch)
		case runBlocked:
			nb2 := j.nb * j.nb
			qr.OrmqrBlocked(p.left, p.trans, p.m, p.n, p.k, ai, a.LD, t, ci, c.LD, j.nb, scratch[:nb2], scratch[nb2:])
		case runVendor:
			j.vendor(i, scratch)
		}
	}
}
