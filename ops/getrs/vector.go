package getrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lusolve"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/subst"
)

// The vector family solves each system on one worker from start to end,
// like permatrix, but both triangular solves are package subst's vector
// substitution (trsm's vector family uses it too): B's columns are
// contiguous, so each step of a triangle solves a vector of B's rows,
// several columns together.
//
//   - NoTrans: the interchanges, then L (unit lower, forward) and U
//     (upper, backward), both read in place from the factor.
//   - Trans: U^T then L^T, both copied once per matrix into one
//     column-major n x n matrix (U^T is its lower triangle, L^T its
//     strictly upper one), then the interchanges in reverse.
//
// On x86-64-v4 the kernels are AVX-512; elsewhere their Go twin runs
// (slower than permatrix's scalar loops for float32, whose fused
// multiply-add is software there): a family of its own, so each machine's
// table decides.

// vectorWorkSize is the per-worker workspace of the vector family: the
// diagonal packs of the two triangles, and for Trans the factor
// transposed, padded so that two workers' scratch never shares a cache
// line.
func vectorWorkSize[T batchlas.Float](p *problem) int {
	n := 2 * subst.DiagSize[T](p.n)
	if p.trans == batchlas.Trans {
		n += p.n * p.n
	}
	return parallel.Pad(n)
}

// launchVector solves every system of the batch with the vector kernels;
// ws has room for at least one worker's vectorWorkSize.
func launchVector[T batchlas.Float](ctx context.Context, p *problem, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], b batchlas.Batch[T], ws []T) error {
	per := vectorWorkSize[T](p)
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.p, j.a, j.ipiv, j.b, j.ws, j.per = runVector, *p, a, ipiv, b, ws, per
	return parallel.RunScratch(ctx, b.Count, flopsPerMatrix(p), len(ws)/per, j)
}

// vector solves systems [lo, hi) with worker w's scratch.
func (j *job[T]) vector(w, lo, hi int) {
	p, a, b, ipiv, ws, per := &j.p, j.a, j.b, j.ipiv, j.ws, j.per
	n, nrhs := p.n, p.nrhs
	trans := p.trans == batchlas.Trans
	ds := subst.DiagSize[T](n)
	pk := ws[w*per : (w+1)*per]
	dl, du, et := pk[:ds], pk[ds:2*ds], pk[2*ds:]
	for i := lo; i < hi; i++ {
		ai, bi, piv := a.Data[i*a.Stride:], b.Data[i*b.Stride:], pivots(ipiv, i, n)
		if i+1 < hi && n > 1 {
			// The factor is read by blocks of rows across its
			// columns, which the hardware prefetcher does not
			// follow: ask for the next system ahead.
			if a.Stride != 0 {
				simd.Prefetch(a.Data[(i+1)*a.Stride:], n, a.LD, n, 0)
			}
			simd.Prefetch(b.Data[(i+1)*b.Stride:], n, b.LD, nrhs, 0)
		}
		// A broadcast factor is packed once per chunk.
		pack := i == lo || a.Stride != 0
		if !trans {
			if pack {
				subst.PackDiag(dl, ai, a.LD, n, false, true)
				subst.PackDiag(du, ai, a.LD, n, true, false)
			}
			lusolve.Forward(bi, b.LD, n, nrhs, piv)
			subst.SolveCols(ai, a.LD, dl, n, false, bi, b.LD, nrhs, 1)
			subst.SolveCols(ai, a.LD, du, n, true, bi, b.LD, nrhs, 1)
			continue
		}
		if pack {
			// E[i,k] = A[k,i]: U^T into E's lower triangle and its
			// diagonal, L^T (unit) into its strictly upper one.
			subst.PackE(et, n, ai, n, a.LD, 1, false, false)
			subst.PackE(et, n, ai, n, a.LD, 1, true, true)
			subst.PackDiag(du, et, n, n, false, false)
			subst.PackDiag(dl, et, n, n, true, true)
		}
		subst.SolveCols(et, n, du, n, false, bi, b.LD, nrhs, 1)
		subst.SolveCols(et, n, dl, n, true, bi, b.LD, nrhs, 1)
		lusolve.Backward(bi, b.LD, n, nrhs, piv)
	}
}
