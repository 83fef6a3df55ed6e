package gemm

//go:generate go run gen_simd.go

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// The simd family's tile: up to simdMaxRows rows (three 64-byte vectors of
// float32; float64 tiles have 24) by simdCols columns of C. simdKB is the
// depth of the transposed copy of op(A) when A is transposed.
const (
	simdCols    = 8
	simdMaxRows = 48
	simdKB      = 64
)

// simd multiplies each matrix on the operands as they lie in memory with
// register tiles of up to three 64-byte vectors of rows (24 float64 or 48
// float32) by 8 columns, with no packing and no blocking: the tile of
// op(B) (k x 8) stays in L1 while the row tiles go past it, and each
// column of A is read as whole vectors. With op(A) = A^T the row block is
// first copied transposed (simdOne); op(B) may be either, as B's elements
// are broadcast one at a time. Edges cost nothing extra: the last row vector is masked, and
// a last block of fewer than 8 columns repeats its last column of B and
// stores only the columns it has.
//
// On x86-64-v4 the tile is the AVX-512 assembly of simd_amd64.s (written
// by gen_simd.go); elsewhere, and with -tags purego, it is simdTileGo,
// which sums in the same order.
func simd[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	flops := 2 * float64(p.m) * float64(p.n) * float64(p.k)
	a, b, c := p.a, p.b, p.c
	return parallel.For(ctx, c.Count, flops, func(_, lo, hi int) {
		if p.transA {
			for i := lo; i < hi; i++ {
				simdTransA(p, a.Data[i*a.Stride:], b.Data[i*b.Stride:], c.Data[i*c.Stride:])
			}
			return
		}
		simdGroups(p, lo, hi)
	})
}

// simdGroupBytes bounds the operands of the matrices that simdGroups runs
// tile by tile together: about half of a core's L2, so a group stays in
// cache while each of its tiles passes over all of its matrices.
const simdGroupBytes = 256 << 10

// simdGroups multiplies matrices lo .. hi-1 with op(A) = A. Each call of
// the tile runs one tile position over a group of matrices (the assembly
// loops over the batch), so a matrix of one tile (m up to 24 or 48, n up to
// 8) costs one pass of the assembly and no Go code. The k == 0 case never
// comes here (Gemm scales C instead).
func simdGroups[T batchlas.Float](p *problem[T], lo, hi int) {
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	sa, sb, sc := p.a.Stride, p.b.Stride, p.c.Stride
	tileRows := 3 * simdLanes[T]()
	ab := [2]T{p.alpha, p.beta}
	per := max(1, simdGroupBytes/(elemSize[T]()*(span(p.a)+span(p.b)+span(p.c))))
	for g0 := lo; g0 < hi; g0 += per {
		count := min(per, hi-g0)
		a, b, c := p.a.Data[g0*sa:], p.b.Data[g0*sb:], p.c.Data[g0*sc:]
		for j0 := 0; j0 < n; j0 += simdCols {
			bj, bsl, boff, nc := simdColumnsOfB(p, b, j0)
			for i0 := 0; i0 < m; i0 += tileRows {
				rows := min(tileRows, m-i0)
				simdTile(k, a[i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, p.beta != 0, count, sa, sb, sc)
			}
		}
	}
}

// simdTransA multiplies one matrix with op(A) = A^T; a, b and c start at
// its first element.
func simdTransA[T batchlas.Float](p *problem[T], a, b, c []T) {
	m, n, k := p.m, p.n, p.k
	lda, ldc := p.a.LD, p.c.LD
	tileRows := 3 * simdLanes[T]()
	// op(A) = A^T: its rows are A's columns, so each row block is copied
	// transposed, simdKB deep at a time, into buf and multiplied from
	// there by every column block; later k slices add to C (beta 1).
	var buf [simdKB * simdMaxRows]T
	for i0 := 0; i0 < m; i0 += tileRows {
		rows := min(tileRows, m-i0)
		for l0 := 0; l0 < k; l0 += simdKB {
			kb := min(simdKB, k-l0)
			for r := range rows {
				for l, v := range a[(i0+r)*lda+l0:][:kb] {
					buf[l*rows+r] = v
				}
			}
			ab := [2]T{p.alpha, p.beta}
			if l0 > 0 {
				ab[1] = 1
			}
			for j0 := 0; j0 < n; j0 += simdCols {
				bj, bsl, boff, nc := simdColumnsOfB(p, b, j0)
				simdTile(kb, buf[:], rows, bj[l0*bsl:], bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, ab[1] != 0, 1, 0, 0, 0)
			}
		}
	}
}

// simdColumnsOfB describes the columns j0 .. j0+nc-1 of op(B) for one
// tile: element (l, j0+cc) is at bj[l*bsl+boff[cc]]. Columns past nc
// repeat the last one, so the tile reads nothing outside B.
func simdColumnsOfB[T batchlas.Float](p *problem[T], b []T, j0 int) (bj []T, bsl int, boff [simdCols]int, nc int) {
	nc = min(simdCols, p.n-j0)
	bsl, bsc := 1, p.b.LD
	if p.transB {
		bsl, bsc = p.b.LD, 1
	}
	for cc := range boff {
		boff[cc] = min(cc, nc-1) * bsc
	}
	return b[j0*bsc:], bsl, boff, nc
}

// simdTileGo is the portable twin of the assembly tile: for each of count
// matrices (a, b and c advancing by sa, sb and sc elements), C = alpha*acc
// (+ beta*C) on a rows x ncols tile, acc summed over l = 0 .. k-1 in order.
func simdTileGo[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[simdCols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	for i := range count {
		a, b, c := a[i*sa:], b[i*sb:], c[i*sc:]
		for cc := range ncols {
			col := c[cc*ldc:][:rows]
			bc := b[boff[cc]:]
			for r := range col {
				var s T
				for l := range k {
					s += a[l*lda+r] * bc[l*bsl]
				}
				if hasBeta {
					col[r] = ab[0]*s + ab[1]*col[r]
				} else {
					col[r] = ab[0] * s
				}
			}
		}
	}
}
