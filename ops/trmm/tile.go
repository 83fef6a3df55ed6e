package trmm

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// tileBlock is the height (side Left) or width (Right) of the blocks of B
// the tile kernel takes: two of the vector tile's columns, so that the
// dense copy of a diagonal block, whose zero half is wasted work, stays
// small.
const tileBlock = 2 * simd.Cols

// tileSlot is the tile kernel's per-worker scratch for a triangle of
// order t and r = the other dimension of B: a dense diagonal block
// (tileBlock^2) and the block of B it multiplies (tileBlock*r).
func tileSlot(t, r int) int {
	b := min(t, tileBlock)
	return b*b + b*r
}

// trmmTile computes B := alpha*op(A)*B (left) or alpha*B*op(A) for one B
// (leading dimension ldb; t x r for left, r x t for right) and one t x t
// triangle A (leading dimension lda; only its uplo triangle is read, its
// diagonal only for a non-unit one), alpha != 0, through s (tileSlot
// elements).
//
// op(A) is lower triangular when lower != trans ("effectively lower").
// Block k of the result (rows for left, columns for right) then needs
// the blocks of B before it (left, effectively lower; right,
// effectively upper: B*U's column j sums B's columns up to j) or after
// it, so the blocks are taken last first or first first, each reading
// only blocks not yet overwritten: block k := alpha*(its product with
// the diagonal block D of op(A)) + alpha*(the product of op(A)'s or B's
// blocks beside it), the first through D's dense copy (zeros off the
// triangle, ones on a unit diagonal) into scratch, the second one
// simd.Gemm with beta 1.
func trmmTile[T batchlas.Float](left, lower, trans, unit bool, t, r int, alpha T, a []T, lda int, b []T, ldb int, s []T) {
	nb := min(t, tileBlock)
	effLower := lower != trans
	// Left: rows last first when effectively lower; right: columns last
	// first when effectively upper.
	backward := effLower == left
	nblocks := (t + nb - 1) / nb
	for q := range nblocks {
		blk := q
		if backward {
			blk = nblocks - 1 - q
		}
		k0 := blk * nb
		kb := min(nb, t-k0)
		d := s[:kb*kb]
		denseDiag(lower, trans, unit, kb, a[k0*lda+k0:], lda, d)
		w := s[nb*nb:]
		// The rest of op(A)'s block row (left) or column (right): the
		// indices before the block or after it.
		r0, r1 := 0, k0
		if left != effLower {
			r0, r1 = k0+kb, t
		}
		if left {
			// w (kb x r) = alpha*D*B_k, then B_k = w + alpha*op(A)[k, rest]*B[rest].
			simd.Gemm(false, false, kb, r, kb, alpha, d, kb, b[k0:], ldb, 0, w, kb)
			for c := range r {
				copy(b[c*ldb+k0:c*ldb+k0+kb], w[c*kb:c*kb+kb])
			}
			if r1 > r0 {
				// op(A)[k0:k0+kb, r0:r1]: A's block, or A^T's (A[r0:r1, k0:k0+kb]).
				if trans {
					simd.Gemm(true, false, kb, r, r1-r0, alpha, a[k0*lda+r0:], lda, b[r0:], ldb, 1, b[k0:], ldb)
				} else {
					simd.Gemm(false, false, kb, r, r1-r0, alpha, a[r0*lda+k0:], lda, b[r0:], ldb, 1, b[k0:], ldb)
				}
			}
			continue
		}
		// w (r x kb) = alpha*B_k*D, then B_k = w + alpha*B[rest]*op(A)[rest, k].
		simd.Gemm(false, false, r, kb, kb, alpha, b[k0*ldb:], ldb, d, kb, 0, w, r)
		for c := range kb {
			copy(b[(k0+c)*ldb:(k0+c)*ldb+r], w[c*r:c*r+r])
		}
		if r1 > r0 {
			// op(A)[r0:r1, k0:k0+kb]: A's block, or A^T's (A[k0:k0+kb, r0:r1]).
			if trans {
				simd.Gemm(false, true, r, kb, r1-r0, alpha, b[r0*ldb:], ldb, a[r0*lda+k0:], lda, 1, b[k0*ldb:], ldb)
			} else {
				simd.Gemm(false, false, r, kb, r1-r0, alpha, b[r0*ldb:], ldb, a[k0*lda+r0:], lda, 1, b[k0*ldb:], ldb)
			}
		}
	}
}

// denseDiag writes op(A)'s m x m diagonal block (A's block at a, leading
// dimension lda) densely into d (leading dimension m): the uplo triangle
// of A's block, transposed for trans, zeros elsewhere, and ones on the
// diagonal for a unit triangle (A's diagonal not read). Column by column,
// without a test per element: at orders 8 and below it is a fifth of a
// matrix's time in tile and in gemm's copies.
func denseDiag[T batchlas.Float](lower, trans, unit bool, m int, a []T, lda int, d []T) {
	for c := range m {
		col := d[c*m : c*m+m]
		// The rows of d's column c inside op(A)'s triangle: op(A) is
		// lower triangular when lower != trans.
		lo, hi := 0, c+1
		if lower != trans {
			lo, hi = c, m
		}
		clear(col[:lo])
		clear(col[hi:])
		if trans {
			// d's column c is A's row c.
			for i := lo; i < hi; i++ {
				col[i] = a[i*lda+c]
			}
		} else {
			copy(col[lo:hi], a[c*lda+lo:c*lda+hi])
		}
		if unit {
			col[c] = 1
		}
	}
}

// A triangle of one block (t <= tileBlock) is one product with its dense
// square, and for a batch of them the per-matrix route above is mostly
// overhead: a simd.Gemm call per matrix for a few tiles, then the result
// copied back a column at a time. Such a batch goes a group of matrices
// at a time instead (tileGroups): the group's squares and tight copies of
// its B into the worker's scratch, then each tile position of the product
// as one call of the vector tile over the whole group (the assembly loops
// over the matrices), written straight into B. The group holds a quarter
// of a core's L2 (the device's) of squares, copies and B, as gemm's simd
// kernel groups its small matrices.

// tileGroup is the number of matrices a group of the tile kernel takes:
// 1 for a triangle of several blocks (trmmTile, one matrix at a time).
func tileGroup[T batchlas.Float](p *problem[T], d *sel.Device) int {
	if p.t > tileBlock {
		return 1
	}
	return matricesIn[T](cache.L2(d).Size/4, p.t*p.t+2*p.m*p.n)
}

// tileSlotOf is the tile kernel's per-worker scratch for p: a group's
// squares and copies of B (tileGroups), or trmmTile's tileSlot.
func tileSlotOf[T batchlas.Float](p *problem[T], d *sel.Device) int {
	if p.t > tileBlock {
		return tileSlot(p.t, p.r)
	}
	return tileGroup(p, d) * (p.t*p.t + p.m*p.n)
}

// groupSquares writes the dense squares of op(A_i) (denseDiag) of the
// count matrices from g0 at the head of s, tight, and returns them with
// their stride: tt, or 0 for a broadcast A, whose one square every
// matrix reads (the tile and swapped kernels' groups).
func groupSquares[T batchlas.Float](p *problem[T], g0, count int, s []T) (sq []T, stride int) {
	a, tt := p.a, p.t*p.t
	lower, trans, unit := p.uplo == batchlas.Lower, p.ta == batchlas.Trans, p.diag == batchlas.Unit
	sq, stride = s[:count*tt], tt
	if a.IsBroadcast() {
		stride = 0
	}
	for i := range count {
		if i == 0 || stride != 0 {
			denseDiag(lower, trans, unit, p.t, a.Data[(g0+i)*a.Stride:], a.LD, sq[i*stride:i*stride+tt])
		}
	}
	return sq, stride
}

// tileGroups computes B_lo .. B_{hi-1} of p (a triangle of one block)
// group by group through s (tileSlotOf elements; group matrices a group).
// A broadcast A makes one square per group, read by every matrix (a
// stride of 0).
func tileGroups[T batchlas.Float](p *problem[T], group, lo, hi int, s []T) {
	b := p.b
	t, m, n, ldb := p.t, p.m, p.n, b.LD
	tt, mn := t*t, m*n
	ab := [2]T{p.alpha, 0}
	tileRows := 3 * simd.Lanes[T]()
	for g0 := lo; g0 < hi; g0 += group {
		count := min(group, hi-g0)
		sq, sqs := groupSquares(p, g0, count, s)
		bc := s[group*tt : group*tt+count*mn]
		for i := range count {
			simd.CopyColumns(bc[i*mn:], m, b.Data[(g0+i)*b.Stride:], ldb, m, n)
		}
		c := b.Data[g0*b.Stride:]
		var boff [simd.Cols]int
		if p.side == batchlas.Left {
			// B_i := alpha*S_i*Bc_i, t rows (one tile) by 8 columns at a time.
			for j0 := 0; j0 < n; j0 += simd.Cols {
				nc := min(simd.Cols, n-j0)
				for cc := range boff {
					boff[cc] = min(cc, nc-1) * m
				}
				simd.Tile(t, sq, t, bc[j0*m:], 1, &boff, c[j0*ldb:], ldb, m, nc, &ab, false, count, sqs, mn, b.Stride)
			}
		} else {
			// B_i := alpha*Bc_i*S_i: S_i's columns 8 at a time, Bc_i's rows a tile at a time.
			for j0 := 0; j0 < n; j0 += simd.Cols {
				nc := min(simd.Cols, n-j0)
				for cc := range boff {
					boff[cc] = min(cc, nc-1) * t
				}
				for i0 := 0; i0 < m; i0 += tileRows {
					rows := min(tileRows, m-i0)
					simd.Tile(t, bc[i0:], m, sq[j0*t:], 1, &boff, c[j0*ldb+i0:], ldb, rows, nc, &ab, false, count, mn, sqs, b.Stride)
				}
			}
		}
		mendNonFinite(p, g0, count, bc, false)
	}
}
