package orgqr

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
	runLanes // through Group, not Chunk
)

// job is one orgqr batch loop (a pooled Body: no closure, no allocation).
type job[T batchlas.Float] struct {
	kernel jobKernel
	p      problem
	nb     int
	a      batchlas.Batch[T]
	tau    batchlas.Vectors[T]
	ws     []T
	per    int
}

// runJob forms Q for every matrix of a, each on one worker, worker w using
// ws[w*per:(w+1)*per].
func runJob[T batchlas.Float](ctx context.Context, kernel jobKernel, p *problem, nb int, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	slots := parallel.Workers(ctx)
	j.kernel, j.p, j.nb, j.a, j.tau, j.ws, j.per = kernel, *p, nb, a, tau, ws, len(ws)/max(slots, 1)
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(p), slots, j)
}

// taus is tau vector i's first k elements (nil when k is 0).
func taus[T batchlas.Float](tau batchlas.Vectors[T], i, k int) []T {
	if k == 0 {
		return nil
	}
	o := i * tau.Stride
	return tau.Data[o : o+k : o+k]
}

// Chunk forms Q for matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	p, a := &j.p, j.a
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		ai := a.Data[i*a.Stride:]
		t := taus(j.tau, i, p.k)
		switch j.kernel {
		case runUnblocked:
			qr.Org2r(p.m, p.n, p.k, ai, a.LD, t, scratch)
		case runBlocked:
			qr.OrgqrBlocked(p.m, p.n, p.k, ai, a.LD, t, j.nb, scratch[:j.nb*j.nb], scratch[j.nb*j.nb:])
		case runVendor:
			j.vendor(i, scratch)
		}
	}
}
