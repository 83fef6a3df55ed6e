package trmm

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/cache"
	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// The swapped family: side Left computed transposed, B^T := alpha*B^T*op(A)^T.
// For a small triangle the tile kernel's product alpha*S*B puts the t rows
// of B in the vector lanes: at t = 4, a quarter of a float32 vector does
// work, and the gemm family beats it 1.3 to 1.9 times for B of 64 columns
// or more below a batch of about a thousand (float32 m = 4, n = 64 and
// 128, the Zen 5 guest). Transposed, B's n columns run along the lanes:
// each B_i is transposed into the worker's scratch (n x t), the product
// with op(A)^T is a call of the vector tile per 3 vectors of rows and 8
// columns, over a group of matrices, into a second n x t block, and that
// is transposed back into B_i. As the tile kernel's groups: the group's
// dense squares of op(A) (denseDiag), its transposed B and the products
// in a quarter of a core's L2.

// swappedGroup is the number of matrices a group of the swapped kernel
// takes.
func swappedGroup[T batchlas.Float](p *problem[T], d *sel.Device) int {
	return matricesIn[T](cache.L2(d).Size/4, p.t*p.t+3*p.m*p.n)
}

// swappedSlot is the swapped kernel's per-worker scratch: a group's
// squares, transposed B and products.
func swappedSlot[T batchlas.Float](p *problem[T], d *sel.Device) int {
	return swappedGroup(p, d) * (p.t*p.t + 2*p.m*p.n)
}

// swappedGroups computes B_lo .. B_{hi-1} of p (side Left) group by group
// through s (swappedSlot elements; group matrices a group). A broadcast A
// makes one square per group, read by every matrix.
func swappedGroups[T batchlas.Float](p *problem[T], group, lo, hi int, s []T) {
	b := p.b
	t, n, ldb := p.t, p.n, b.LD
	tt, tn := t*t, t*n
	ab := [2]T{p.alpha, 0}
	tileRows := 3 * simd.Lanes[T]()
	for g0 := lo; g0 < hi; g0 += group {
		count := min(group, hi-g0)
		sq, sqs := groupSquares(p, g0, count, s)
		// bt_i (n x t) is B_i^T, ct_i the product, both tight.
		bt := s[group*tt : group*tt+count*tn]
		ct := s[group*(tt+tn) : group*(tt+tn)+count*tn]
		for i := range count {
			simd.Transpose(bt[i*tn:], n, b.Data[(g0+i)*b.Stride:], ldb, n, t)
		}
		// ct_i := alpha*bt_i*S_i^T: rows a tile at a time, S_i's rows
		// (the product's columns) 8 at a time.
		var boff [simd.Cols]int
		for c0 := 0; c0 < t; c0 += simd.Cols {
			nc := min(simd.Cols, t-c0)
			for cc := range boff {
				// S_i(c0+cc, l) is sq[c0:][l*t+cc]; the tile reads column
				// 0 at boff[0] = 0, as every caller's.
				boff[cc] = min(cc, nc-1)
			}
			for j0 := 0; j0 < n; j0 += tileRows {
				rows := min(tileRows, n-j0)
				simd.Tile(t, bt[j0:], n, sq[c0:], t, &boff, ct[c0*n+j0:], n, rows, nc, &ab, false, count, tn, sqs, tn)
			}
		}
		for i := range count {
			simd.Transpose(b.Data[(g0+i)*b.Stride:], ldb, ct[i*tn:], n, t, n)
		}
		mendNonFinite(p, g0, count, bt, true)
	}
}
