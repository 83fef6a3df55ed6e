package gecon

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/condest"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// job is the state of one gecon batch loop, the Body parallel.Run hands to
// its workers; it comes from parallel's free list, so a call with its
// workspace supplied allocates nothing.
type job[T batchlas.Float] struct {
	vendor       bool
	p            problem
	lu           batchlas.Batch[T]
	anorm, rcond []T
	ws           []T
	per          int // one worker's share of ws
}

// Chunk estimates matrices [lo, hi) on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	n, lu := j.p.n, j.lu
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		m := lu.Data[i*lu.Stride:]
		if r, ok := condest.FromNorm(j.anorm[i]); ok {
			j.rcond[i] = r
			continue
		}
		if !condest.Finite(m, lu.LD, n, 0) {
			j.rcond[i] = T(math.NaN())
			continue
		}
		if j.vendor {
			j.rcond[i] = vendorRcond(j.p.norm, m, lu.LD, n, j.anorm[i], scratch)
			continue
		}
		j.rcond[i] = estimate(j.p.norm, m, lu.LD, n, j.anorm[i], scratch)
	}
}

// launchPerMatrix estimates every matrix on one worker from start to end
// (condest.InvNorm1 over lusolve.Solve with the factor as getrf left it).
func launchPerMatrix[T batchlas.Float](ctx context.Context, p *problem, lu batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	return runJob(ctx, false, p, lu, anorm, rcond, ws, need)
}

// runJob runs the estimates over the batch on a recycled job, allocating
// the workspace when the caller gave none.
func runJob[T batchlas.Float](ctx context.Context, vendor bool, p *problem, lu batchlas.Batch[T], anorm, rcond, ws []T, need int) error {
	workers := parallel.Workers(ctx)
	if ws == nil {
		ws = make([]T, need)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.vendor, j.p, j.lu, j.anorm, j.rcond = vendor, *p, lu, anorm, rcond
	j.ws, j.per = ws, need/max(workers, 1)
	return parallel.RunScratch(ctx, lu.Count, flopsPerMatrix(p.n), workers, j)
}

// luSolver applies (A/s)^-1 or its transpose to a vector through the
// factor: x is scaled by s, then solved in place. For the infinity norm
// the roles of A and A^T swap (||A^-1||_inf = ||A^-T||_1).
type luSolver[T batchlas.Float] struct {
	m     []T
	ld, n int
	piv   []int32
	s     T
	swap  bool
}

func (l luSolver[T]) Solve(x []T, trans bool) {
	for i := range x {
		x[i] *= l.s
	}
	lusolve.Solve(trans != l.swap, l.m, l.ld, l.n, l.piv, x, l.n, 1)
}

// estimate is rcond of one matrix with a finite factor and a finite,
// positive anorm.
func estimate[T batchlas.Float](norm batchlas.Norm, m []T, ld, n int, an T, scratch []T) T {
	s := condest.Scale(an)
	sv := luSolver[T]{m: m, ld: ld, n: n, piv: identityPivots(n), s: s, swap: norm == batchlas.InfNorm}
	est, finite := condest.InvNorm1(n, scratch[:n], scratch[n:2*n], sv)
	return condest.Rcond(an, s, est, finite)
}

// identity holds the pivots 0, 1, 2, ...: lusolve.Solve applies
// interchanges, and the estimate needs none (the norms of A^-1 do not
// change when its columns are permuted). It only grows, and a published
// slice is never written again, so workers share it without a lock.
var identity atomic.Pointer[[]int32]

// identityPivots returns the identity pivots of order n.
func identityPivots(n int) []int32 {
	if p := identity.Load(); p != nil && len(*p) >= n {
		return (*p)[:n]
	}
	s := make([]int32, max(n, 64))
	for i := range s {
		s[i] = int32(i)
	}
	identity.Store(&s)
	return s[:n]
}
