package trsm

import (
	"context"
	"unsafe"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/subst"
	sel "github.com/batchlas-go/batchlas/select"
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

// vectorWorkSize is the per-worker workspace of the vector family on
// device d for A's leading dimension lda: E packed the way the side's
// kernel reads it, padded so that two workers' scratch never shares a
// cache line.
func vectorWorkSize[T batchlas.Float](p *problem, d *sel.Device, lda int) int {
	if p.side == batchlas.Right {
		return parallel.Pad(subst.StepsSize(p.t))
	}
	return parallel.Pad(subst.DiagSize[T](p.t) + eCopyLD[T](p, d, lda)*p.t)
}

// eCopyLD is the leading dimension of E's copy in the workspace
// (cache.PaddedLD), or 0 where E is read in place (copiesE).
func eCopyLD[T batchlas.Float](p *problem, d *sel.Device, lda int) int {
	if !copiesE[T](p, d, lda) {
		return 0
	}
	return cache.PaddedLD(p.t, elemSize[T]())
}

// copiesE reports whether side Left copies E to the workspace: E = A^T,
// which SolveCols cannot read in place, or E = A whose columns (lda
// apart) would conflict in device d's caches. SolveCols reads one vector
// of rows of every column left of a block for each chunk of 8 columns of
// B: with lda a multiple of 4 KiB those vectors share a few sets (trsm
// side Left at t = 1024 ran at 0.57 of its speed at lda + 8 on a Zen 5).
// The copy has leading dimension cache.PaddedLD.
func copiesE[T batchlas.Float](p *problem, d *sel.Device, lda int) bool {
	if p.side == batchlas.Right {
		return false
	}
	if p.ta != batchlas.NoTrans {
		return true
	}
	if p.t <= 1 {
		return false
	}
	es := elemSize[T]()
	return cache.L1D(d).Conflicts(lda*es, cache.Line, p.t) || cache.L2(d).Conflicts(lda*es, cache.Line, p.t)
}

func elemSize[T batchlas.Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// launchVector solves every matrix of the batch with the vector kernels.
// alpha is not 0 (Trsm zeroes B itself).
func launchVector[T batchlas.Float](ctx context.Context, p *problem, alpha T, a, b batchlas.Batch[T], ws []T) error {
	g := geometry(p, a.LD)
	dev := opkit.DeviceFrom(ctx)
	per := vectorWorkSize[T](p, dev, a.LD)
	lde := eCopyLD[T](p, dev, a.LD) // 0: E read in place
	unit := p.diag == batchlas.Unit
	left := p.side == batchlas.Left
	tri := 1
	if p.uplo == batchlas.Upper {
		tri = 2
	}
	work := float64(p.t) * float64(p.t) * float64(p.r)
	// At most one worker per slot of ws, so w*per+per <= len(ws).
	return runJob(ctx, runVector, p, alpha, a, b, ws, work, max(1, len(ws)/per), func(j *job[T]) {
		j.g, j.per, j.unit, j.left, j.tri, j.lde = g, per, unit, left, tri, lde
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
			// E = A is read in place unless its columns conflict
			// in cache; E = A^T is copied column-major (copiesE).
			e, lde := ai, a.LD
			if j.lde > 0 {
				e, lde = et, j.lde
			}
			if pack {
				if j.lde > 0 {
					subst.PackE(et, lde, ai, p.t, g.ers, g.ecs, g.back, unit)
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
