package pocon

import (
	"context"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/chol"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// job is the state of one pocon batch loop, the Body parallel.Run hands to
// its workers; it comes from parallel's free list, so a call with its
// workspace supplied allocates nothing.
type job[T batchlas.Float] struct {
	vendor       bool
	p            problem
	f            batchlas.Batch[T]
	anorm, rcond []T
	ws           []T
	per          int // one worker's share of ws
}

// Chunk estimates matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	n, f := j.p.n, j.f
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		m := f.Data[i*f.Stride:]
		if r, ok := condest.FromNorm(j.anorm[i]); ok {
			j.rcond[i] = r
			continue
		}
		if !condest.Finite(m, f.LD, n, byte(j.p.uplo)) {
			j.rcond[i] = T(math.NaN())
			continue
		}
		if j.vendor {
			j.rcond[i] = vendorRcond(j.p.uplo, m, f.LD, n, j.anorm[i], scratch)
			continue
		}
		j.rcond[i] = estimate(j.p.uplo, m, f.LD, n, j.anorm[i], scratch)
	}
}

// launchPerMatrix estimates every matrix on one worker from start to end
// (condest.InvNorm1 over chol.Solve with the factor as potrf left it).
func launchPerMatrix[T batchlas.Float](ctx context.Context, p *problem, f batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	return runJob(ctx, false, p, f, anorm, rcond, ws, need)
}

// runJob runs the estimates over the batch on a recycled job, allocating
// the workspace when the caller gave none.
func runJob[T batchlas.Float](ctx context.Context, vendor bool, p *problem, f batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	workers := parallel.Workers(ctx)
	if ws == nil {
		ws = make([]T, need)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.vendor, j.p, j.f, j.anorm, j.rcond = vendor, *p, f, anorm, rcond
	j.ws, j.per = ws, need/max(workers, 1)
	return parallel.RunScratch(ctx, f.Count, flopsPerMatrix(p.n), workers, j)
}

// cholSolver applies (A/s)^-1 to a vector through the Cholesky factor: x
// is scaled by s, then solved in place. A is symmetric, so the transpose
// is the same solve.
type cholSolver[T batchlas.Float] struct {
	m     []T
	ld, n int
	uplo  batchlas.Uplo
	s     T
}

func (c cholSolver[T]) Solve(x []T, _ bool) {
	for i := range x {
		x[i] *= c.s
	}
	chol.Solve(c.uplo, c.m, c.ld, c.n, x, c.n, 1)
}

// estimate is rcond of one matrix with a finite factor and a finite,
// positive anorm.
func estimate[T batchlas.Float](uplo batchlas.Uplo, m []T, ld, n int, an T, scratch []T) T {
	s := condest.Scale(an)
	sv := cholSolver[T]{m: m, ld: ld, n: n, uplo: uplo, s: s}
	est, finite := condest.InvNorm1(n, scratch[:n], scratch[n:2*n], sv)
	return condest.Rcond(an, s, est, finite)
}
