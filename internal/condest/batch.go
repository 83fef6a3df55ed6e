package condest

import (
	"context"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The batch side of gecon and pocon, which differ only in their factor
// and its solves: the arguments both take (a factor batch f, one anorm
// and one rcond per matrix), their checks, and the batch loop that gives
// every matrix its rcond.

// CheckArgs validates f (named fname, square, read only), anorm and rcond
// (at least f.Count each; rcond shares no element with f or anorm) for op.
// It does not read anorm's values (CheckNorms does).
func CheckArgs[T batchlas.Float](op, fname, kind string, f batchlas.Batch[T], anorm, rcond []T) error {
	if err := f.Check(op, fname, false); err != nil {
		return err
	}
	switch {
	case f.Rows != f.Cols:
		return opkit.Argf(op, fname, "%s is %dx%d; %s factor is square", fname, f.Rows, f.Cols, kind)
	case len(anorm) < f.Count:
		return opkit.Argf(op, "anorm", "len(anorm) %d < %s.Count %d: give the norm of every matrix, taken before factoring (%s.Norm)", len(anorm), fname, f.Count, op)
	case len(rcond) < f.Count:
		return opkit.Argf(op, "rcond", "len(rcond) %d < %s.Count %d: rcond receives one value per matrix", len(rcond), fname, f.Count)
	}
	if f.Count == 0 {
		return nil
	}
	r, _ := batchlas.WrapBatch(rcond[:f.Count], 1, 1, f.Count)
	an, _ := batchlas.WrapBatch(anorm[:f.Count], 1, 1, f.Count)
	if err := opkit.CheckDisjoint(op, "rcond", r, fname, f); err != nil {
		return err
	}
	return opkit.CheckDisjoint(op, "rcond", r, "anorm", an)
}

// CheckNorms returns an *ArgError for the first negative anorm_i: a norm
// is never negative, so it is the wrong slice or a bug. NaN and Inf are
// not errors (a matrix with a NaN has a NaN norm): FromNorm gives them NaN
// and 0.
func CheckNorms[T batchlas.Float](op string, anorm []T) error {
	for i, v := range anorm {
		if v < 0 {
			return opkit.Argf(op, "anorm", "anorm[%d] = %g: a norm is >= 0 (give ||A_%d|| taken before factoring, %s.Norm)", i, float64(v), i, op)
		}
	}
	return nil
}

// CheckWorkspace refuses a workspace that shares an element with f, anorm
// or rcond.
func CheckWorkspace[T batchlas.Float](op, fname string, ws []T, f batchlas.Batch[T], anorm, rcond []T) error {
	if err := opkit.CheckWorkspace(op, ws, fname, f); err != nil {
		return err
	}
	for _, o := range []struct {
		name string
		s    []T
	}{{"anorm", anorm}, {"rcond", rcond}} {
		b, _ := batchlas.WrapBatch(o.s, 1, 1, len(o.s))
		if err := opkit.CheckWorkspace(op, ws, o.name, b); err != nil {
			return err
		}
	}
	return nil
}

// Estimator is one kernel: Rcond is the rcond of one matrix m (leading
// dimension ld, order n) whose factor is finite and whose norm an is
// finite and positive, with one worker's scratch. Kernels are zero-size
// types, one per variant (norm, triangle), so that passing one to Run
// allocates nothing (a generic function value would capture its
// dictionary on the heap).
type Estimator[T batchlas.Float] interface {
	Rcond(m []T, ld, n int, an T, scratch []T) T
}

// Run gives every matrix of f its rcond: FromNorm's where the norm
// decides, NaN for a factor with an Inf or NaN in part (Finite), else est,
// each matrix on one worker with its slot of ws (need elements for all
// workers; nil allocates them). flops weighs a matrix for the split. It
// allocates nothing with ws given and est of a zero-size type.
func Run[T batchlas.Float](ctx context.Context, f batchlas.Batch[T], part byte, anorm, rcond, ws []T, need int, flops float64, est Estimator[T]) error {
	workers := parallel.Workers(ctx)
	if ws == nil {
		ws = make([]T, need)
	}
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.f, j.part, j.anorm, j.rcond, j.est = f, part, anorm, rcond, est
	j.ws, j.per = ws, need/max(workers, 1)
	return parallel.RunScratch(ctx, f.Count, flops, workers, j)
}

// job is Run's loop body, from parallel's free list.
type job[T batchlas.Float] struct {
	f            batchlas.Batch[T]
	part         byte
	anorm, rcond []T
	ws           []T
	per          int // one worker's share of ws
	est          Estimator[T]
}

// Chunk gives matrices [lo, hi) their rcond on worker w.
func (j *job[T]) Chunk(w, lo, hi int) {
	n, f := j.f.Rows, j.f
	scratch := j.ws[w*j.per : (w+1)*j.per]
	for i := lo; i < hi; i++ {
		m := f.Data[i*f.Stride:]
		if r, ok := FromNorm(j.anorm[i]); ok {
			j.rcond[i] = r
			continue
		}
		if !Finite(m, f.LD, n, j.part) {
			j.rcond[i] = T(math.NaN())
			continue
		}
		j.rcond[i] = j.est.Rcond(m, f.LD, n, j.anorm[i], scratch)
	}
}

// Norms is the body of gecon.Norm and pocon.Norm: it validates a (read
// only; square when square is set), anorm (at least a.Count elements,
// sharing none with a) for op, then writes norm(matrix i) to anorm_i,
// the matrices spread over the workers of ctx. It runs to its end
// whatever ctx says: n^2 reads per matrix, far less than the
// factorisation that follows.
func Norms[T batchlas.Float](ctx context.Context, op string, a batchlas.Batch[T], square bool, anorm []T, norm func(m []T) T) error {
	if err := a.Check(op, "a", false); err != nil {
		return err
	}
	switch {
	case square && a.Rows != a.Cols:
		return opkit.Argf(op, "a", "a is %dx%d; a symmetric matrix is square", a.Rows, a.Cols)
	case len(anorm) < a.Count:
		return opkit.Argf(op, "anorm", "len(anorm) %d < a.Count %d: anorm receives one norm per matrix", len(anorm), a.Count)
	}
	if a.Count == 0 {
		return nil
	}
	out, _ := batchlas.WrapBatch(anorm[:a.Count], 1, 1, a.Count)
	if err := opkit.CheckDisjoint(op, "anorm", out, "a", a); err != nil {
		return err
	}
	_ = parallel.For(context.WithoutCancel(opkit.Context(ctx)), a.Count, float64(a.Rows*a.Cols), func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			anorm[i] = norm(a.Data[i*a.Stride:])
		}
	})
	return nil
}
