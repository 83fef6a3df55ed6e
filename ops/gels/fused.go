package gels

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/qr"
	sel "github.com/batchlas-go/batchlas/select"
)

// job is the state of one gels batch loop, the Body parallel.Run hands to
// its workers; it comes from parallel's free list, so a call with its
// workspace supplied allocates nothing.
type job[T batchlas.Float] struct {
	family *sel.Family
	nb     int // blocked's panel width
	p      problem
	a, b   batchlas.Batch[T]
	info   []int32
	ws     []T
	per    int // one worker's share of ws
}

// runJob runs the systems over the batch on a recycled job, each on one
// worker with its slot of ws.
func runJob[T batchlas.Float](ctx context.Context, c sel.Choice, p *problem, a, b batchlas.Batch[T], info []int32, ws []T, need int) error {
	workers := parallel.Workers(ctx)
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.family, j.nb, j.p, j.a, j.b, j.info = c.Family(), 0, *p, a, b, info
	if c.Is(blocked) {
		j.nb = c.Field("nb")
	}
	j.ws, j.per = ws, need/max(workers, 1)
	return parallel.RunScratch(ctx, a.Count, flopsPerMatrix(p), workers, j)
}

// Chunk solves systems [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		am, bm := j.a.Data[i*j.a.Stride:], j.b.Data[i*j.b.Stride:]
		switch j.family {
		case vendor:
			j.info[i] = vendorSolve(&j.p, am, j.a.LD, bm, j.b.LD, scratch)
		default:
			j.info[i] = solve(&j.p, j.nb, am, j.a.LD, bm, j.b.LD, scratch)
		}
	}
}

// solve solves one system while A_i is in cache: the QR (Geqr2, or
// GeqrfBlocked in panels of nb > 0 columns) factors it, R's diagonal is
// checked before B_i is touched (a zero or NaN entry leaves B_i as it was
// and is the info), then Q^T is applied to B_i (Orm2r reflector by
// reflector, or OrmqrBlocked panel by panel) and R*X = the top n rows is
// solved by back-substitution, column by column.
func solve[T batchlas.Float](p *problem, nb int, a []T, lda int, b []T, ldb int, scratch []T) int32 {
	m, n, nrhs := p.m, p.n, p.nrhs
	tau := scratch[:n]
	if nb > 0 {
		t, work := scratch[n:n+nb*nb], scratch[n+nb*nb:]
		qr.GeqrfBlocked(m, n, a, lda, tau, nb, t, work)
	} else {
		qr.Geqr2(m, n, a, lda, tau, scratch[n:])
	}
	for j := range n {
		if d := a[j*lda+j]; !(d > 0 || d < 0) {
			return int32(j + 1)
		}
	}
	if nb > 0 {
		t, work := scratch[n:n+nb*nb], scratch[n+nb*nb:]
		qr.OrmqrBlocked(true, true, m, nrhs, n, a, lda, tau, b, ldb, nb, t, work)
	} else {
		qr.Orm2r(true, true, m, nrhs, n, a, lda, tau, b, ldb, scratch[n:])
	}
	for c := range nrhs {
		x := b[c*ldb : c*ldb+n]
		for k := n - 1; k >= 0; k-- {
			x[k] /= a[k*lda+k]
			v := x[k]
			col := a[k*lda : k*lda+k]
			for r, u := range col {
				x[r] -= u * v
			}
		}
	}
	return 0
}
