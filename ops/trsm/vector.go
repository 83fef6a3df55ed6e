package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/subst"
)

// The vector family: direct's reduction to one substitution E*Y = alpha*C
// (see direct.go), solved by package subst's vector kernels, one matrix
// at a time, the batch spread over the workers.
//
//   - side Left: C = B, whose columns are contiguous; SolveCols runs along
//     the triangle, a vector of rows of E at a time, several columns of B
//     together. It reads E's columns in place when E = A; for E = A^T the
//     triangle is first copied into a column-major E (subst.PackE).
//   - side Right: C = B^T, whose rows (B's columns) are contiguous;
//     SolveRows runs along B's rows, each step a chunk of up to four
//     vectors.

// vectorWorkSize is the per-worker workspace of the vector family: E
// packed the way the side's kernel reads it, padded so that two workers'
// scratch never shares a cache line.
func vectorWorkSize[T batchlas.Float](p *problem) int {
	if p.side == batchlas.Right {
		return parallel.Pad(subst.StepsSize(p.t))
	}
	n := subst.DiagSize[T](p.t)
	if p.ta != batchlas.NoTrans {
		n += p.t * p.t // E = A^T, copied column-major
	}
	return parallel.Pad(n)
}

// launchVector solves every matrix of the batch with the vector kernels.
// alpha is not 0 (Trsm zeroes B itself).
func launchVector[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T], ws []T) error {
	g := geometry(p, a.LD)
	per := vectorWorkSize[T](p)
	unit := p.diag == batchlas.Unit
	left := p.side == batchlas.Left
	tri := 1
	if p.uplo == batchlas.Upper {
		tri = 2
	}
	work := float64(p.t) * float64(p.t) * float64(p.r)
	// At most one worker per slot of ws, so w*per+per <= len(ws).
	return runJob(ctx, runVector, p, alpha, a, b, ws, work, max(1, len(ws)/per), func(j *job[T]) {
		j.g, j.per, j.unit, j.left, j.tri = g, per, unit, left, tri
	})
}

// vector solves matrices [lo, hi) with worker w's scratch.
func (j *job[T]) vector(w, lo, hi int) {
	p, a, b, g, per, unit, left, tri, alpha := &j.p, j.a, j.b, j.g, j.per, j.unit, j.left, j.tri, j.alpha
	ws := j.ws
	if p.t == 1 && left && !unit && tinyAmong(a, lo, hi) {
		// A subnormal diagonal is divided by (divide.go).
		for i := lo; i < hi; i++ {
			solveDivide(a.Data[i*a.Stride:], g, 1, p.n, b.Data[i*b.Stride:], 1, b.LD, alpha)
		}
		return
	}
	if p.t == 1 {
		subst.Scale(b.Data[lo*b.Stride:], b.LD, p.m, p.n, hi-lo, b.Stride, a.Data[lo*a.Stride:], a.Stride, unit, alpha)
		return
	}
	pk := ws[w*per : (w+1)*per]
	var dg, et []T // side Left: the diagonal pack, then E = A^T
	if left {
		dg, et = pk[:subst.DiagSize[T](p.t)], pk[subst.DiagSize[T](p.t):]
	}
	for i := lo; i < hi; i++ {
		ai, bi := a.Data[i*a.Stride:], b.Data[i*b.Stride:]
		if i+1 < hi {
			// The next matrix is read column by column in blocks
			// of rows, which the hardware prefetcher does not
			// follow: ask for its triangle and B ahead.
			if a.Stride != 0 {
				simd.Prefetch(a.Data[(i+1)*a.Stride:], p.t, a.LD, p.t, tri)
			}
			simd.Prefetch(b.Data[(i+1)*b.Stride:], p.m, b.LD, p.n, 0)
		}
		// A broadcast matrix is packed once per chunk.
		pack := i == lo || a.Stride != 0
		if left {
			// E = A is read in place; E = A^T is copied column-major.
			e, lde := ai, a.LD
			if g.ers != 1 {
				e, lde = et, p.t
			}
			if pack {
				if g.ers != 1 {
					subst.PackE(et, ai, p.t, g.ers, g.ecs, g.back, unit)
				}
				subst.PackDiag(dg, e, lde, p.t, g.back, unit)
			}
			subst.SolveCols(e, lde, dg, p.t, g.back, bi, b.LD, p.n, alpha)
		} else {
			if pack {
				subst.PackSteps(pk, ai, p.t, g.ers, g.ecs, g.back, unit)
			}
			subst.SolveRows(pk, p.t, g.back, bi, b.LD, p.m, alpha)
		}
	}
}
