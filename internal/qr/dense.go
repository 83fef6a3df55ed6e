package qr

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// The block reflector on a dense copy of V. LAPACK's dlarft and dlarfb
// split V into its unit lower triangle and the rest, and multiply the
// triangle by level-2 loops; at the orders batches hold (n <= a few
// hundred) those loops cost as much as the products. Copied out with its
// ones and zeros written, V is one operand of the tile: T's Gram matrix
// and the two products with C are three calls of it (geqrf float64
// 128x128 batch 256 on the Intel Xeon, two cores: 14.0 ms against 18.5
// split).

// panelMin is the widest panel GeqrfBlocked factors by Geqr2; wider
// panels are factored blocked themselves, at half the width.
const panelMin = 8

// BlockedWork is the work, in elements, that GeqrfBlocked, OrgqrBlocked
// and OrmqrBlocked need beside T for m x n matrices and
// panels of nb reflectors: the dense V and its transpose, T's dense copy,
// and two products of the block with C.
func BlockedWork(m, n, nb int) int {
	nb = max(nb, 1)
	r := max(m, n, 1)
	return r + nb*(4*r+nb)
}

// applyBlock applies the block reflector of the k reflectors stored below
// the diagonal of v (their taus in tau) to the m x n matrix c, from the
// left (V m x k) or the right (V n x k), H or H^T (trans), H = H_0 ..
// H_{k-1} = I - V T V^T: V copied dense into work and transposed beside
// it, T (k x k upper, leading dimension ldt, in t) formed from them, then
// the products. work needs BlockedWork(m, n, k).
//
// The products with V^T read the transposed copy, so that none of them
// takes simd.Gemm's path for a transposed A, which transposes A again for
// each call into a 24 KiB array on the stack that Go zeroes first: twice
// a block, where the transposed copy is made once.
func applyBlock[T batchlas.Float](left, trans bool, m, n, k int, v []T, ldv int, tau []T, t []T, ldt int, c []T, ldc int, work []T) {
	nq := n
	if left {
		nq = m
	}
	vd, vt, rest := work[:nq*k], work[nq*k:2*nq*k], work[2*nq*k:]
	denseV(nq, k, v, ldv, vd)
	simd.Transpose(vt, k, vd, nq, k, nq)
	larftDense(nq, k, vt, tau, t, ldt, rest)
	larfbDense(left, trans, m, n, k, vd, vt, t, ldt, c, ldc, rest)
}

// denseV copies the m x k unit lower trapezoidal V below the diagonal of
// v into vd (leading dimension m) with its ones and zeros written.
func denseV[T batchlas.Float](m, k int, v []T, ldv int, vd []T) {
	for j := 0; j < k; j++ {
		col := vd[j*m : (j+1)*m]
		clear(col[:j])
		col[j] = 1
		copy(col[j+1:], v[j+1+j*ldv:m+j*ldv])
	}
}

// larftDense is dlarft (forward, columnwise) on vt, the k x m transpose
// of the dense V of denseV: the Gram matrix G = V^T V is one product on
// the tile (work needs k*k), then T's columns follow by dlarft's
// recurrence T(0:i, i) = -tau_i T(0:i, 0:i) G(0:i, i). Only T's upper
// triangle is written; a zero tau_i gives T's column i zero, as dlarft.
func larftDense[T batchlas.Float](m, k int, vt []T, tau []T, t []T, ldt int, work []T) {
	g := work[:k*k]
	simd.Gemm(false, true, k, k, m, 1, vt, k, vt, k, 0, g, k)
	for i := 0; i < k; i++ {
		ti := tau[i]
		col := t[i*ldt : i*ldt+i+1]
		col[i] = ti
		if ti == 0 {
			clear(col[:i])
			continue
		}
		// col = -tau_i G(0:i, i), then col := T(0:i, 0:i) col in place,
		// column by column of T (contiguous): entry l is read before any
		// later column writes it.
		gi := g[i*k : i*k+i]
		for j := 0; j < i; j++ {
			col[j] = -ti * gi[j]
		}
		for l := 0; l < i; l++ {
			xl := col[l]
			tl := t[l*ldt : l*ldt+l+1]
			for j, tj := range tl[:l] {
				col[j] += tj * xl
			}
			col[l] = tl[l] * xl
		}
	}
}

// larfbDense applies H = I - V T V^T, or H^T (trans), to the m x n
// matrix c, vd the dense copy of denseV and vt its transpose: from the
// left (V m x k) W^T = V^T C, Y = op(T) W^T, C -= V Y (H^T C = C - V T^T
// V^T C); from the right (V n x k) W = C V, Y = W op(T), C -= Y V^T (C H
// = C - C V T V^T). work needs k*k + 2*k*max(m, n) elements.
func larfbDense[T batchlas.Float](left, trans bool, m, n, k int, vd, vt []T, t []T, ldt int, c []T, ldc int, work []T) {
	// td is T's dense copy, T^T's for H^T from the left: as vt, so that
	// the product with it is not simd.Gemm's transposed-A path.
	td, work := work[:k*k], work[k*k:]
	tt := left && trans
	for j := 0; j < k; j++ {
		tc := td[j*k : (j+1)*k]
		if tt {
			clear(tc[:j])
			for i := j; i < k; i++ {
				tc[i] = t[i*ldt+j]
			}
			continue
		}
		copy(tc[:j+1], t[j*ldt:j*ldt+j+1])
		clear(tc[j+1:])
	}
	if left {
		wt, y := work[:k*n], work[k*n:2*k*n]
		simd.Gemm(false, false, k, n, m, 1, vt, k, c, ldc, 0, wt, k)
		simd.Gemm(false, false, k, n, k, 1, td, k, wt, k, 0, y, k)
		simd.Gemm(false, false, m, n, k, -1, vd, m, y, k, 1, c, ldc)
		return
	}
	w, y := work[:m*k], work[m*k:2*m*k]
	simd.Gemm(false, false, m, k, n, 1, c, ldc, vd, n, 0, w, m)
	simd.Gemm(false, trans, m, k, k, 1, w, m, td, k, 0, y, m)
	simd.Gemm(false, true, m, n, k, -1, y, m, vd, n, 1, c, ldc)
}
