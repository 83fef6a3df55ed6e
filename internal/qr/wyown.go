package qr

import "github.com/batchlas-go/batchlas"

// The blocked forms of Org2r and Orm2r on the compact WY representation
// H_i .. H_{i+ib-1} = I - V T V^T (LAPACK's dorgqr and dormqr with nx =
// 0). wyTriangle and wyApply are this file's own dlarft and dlarfb
// (forward, columnwise), written before Larft and Larfb were committed:
// they never read V's diagonal or what is above it (vAt), so a factor
// shared by concurrent ormqr calls is read only.

// OrgqrBlocked is Org2r over panels of nb reflectors, last panel first:
// each panel's T is formed (wyTriangle), its block reflector applied to
// the columns to its right (wyApply), and the panel's own columns formed
// by Org2r. t needs nb*nb elements, work n*nb (at least n). nb < 1 or nb
// >= k is Org2r itself.
func OrgqrBlocked[T batchlas.Float](m, n, k int, a []T, lda int, tau []T, nb int, t, work []T) {
	if n <= 0 {
		return
	}
	if nb < 1 || nb >= k {
		Org2r(m, n, k, a, lda, tau, work)
		return
	}
	last := ((k - 1) / nb) * nb // the start of the last panel
	// Columns k .. n-1: zero above row k, the identity's below.
	for j := k; j < n; j++ {
		col := a[j*lda : j*lda+k]
		for l := range col {
			col[l] = 0
		}
	}
	if k < n {
		Org2r(m-k, n-k, 0, a[k+k*lda:], lda, nil, work)
	}
	for i := last; i >= 0; i -= nb {
		ib := min(nb, k-i)
		ii := i + i*lda
		if i+ib < n {
			wyTriangle(m-i, ib, a[ii:], lda, tau[i:], t, nb)
			wyApply(true, false, m-i, n-i-ib, ib, a[ii:], lda, t, nb, a[ii+ib*lda:], lda, work)
		}
		Org2r(m-i, ib, ib, a[ii:], lda, tau[i:], work)
		for j := i; j < i+ib; j++ {
			col := a[j*lda : j*lda+i]
			for l := range col {
				col[l] = 0
			}
		}
	}
}

// OrmqrBlocked is Orm2r over panels of nb reflectors, each applied as one
// block reflector. a is only read. t needs nb*nb elements, work n*nb
// (left) or m*nb (right), at least n or m. nb < 1 or nb >= k is Orm2r
// itself.
func OrmqrBlocked[T batchlas.Float](left, trans bool, m, n, k int, a []T, lda int, tau []T, c []T, ldc int, nb int, t, work []T) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if nb < 1 || nb >= k {
		Orm2r(left, trans, m, n, k, a, lda, tau, c, ldc, work)
		return
	}
	nq := n
	if left {
		nq = m
	}
	forward := left == trans
	npanels := (k + nb - 1) / nb
	for s := 0; s < npanels; s++ {
		p := s
		if !forward {
			p = npanels - 1 - s
		}
		i := p * nb
		ib := min(nb, k-i)
		ii := i + i*lda
		wyTriangle(nq-i, ib, a[ii:], lda, tau[i:], t, nb)
		if left {
			wyApply(true, trans, m-i, n, ib, a[ii:], lda, t, nb, c[i:], ldc, work)
		} else {
			wyApply(false, trans, m, n-i, ib, a[ii:], lda, t, nb, c[i*ldc:], ldc, work)
		}
	}
}

// vAt is element (l, j) of the unit lower trapezoidal V stored below the
// diagonal of v: 1 on the diagonal, 0 above it, whatever is stored there.
func vAt[T batchlas.Float](v []T, ldv, l, j int) T {
	switch {
	case l > j:
		return v[l+j*ldv]
	case l == j:
		return 1
	}
	return 0
}

// wyTriangle forms the k x k upper triangular T (leading dimension ldt)
// of the block reflector H_0 .. H_{k-1} = I - V T V^T, V the n x k unit
// lower trapezoidal matrix stored below the diagonal of v (dlarft,
// forward, columnwise). Only T's upper triangle is written and read.
func wyTriangle[T batchlas.Float](n, k int, v []T, ldv int, tau []T, t []T, ldt int) {
	for i := 0; i < k; i++ {
		ti := tau[i]
		col := t[i*ldt : i*ldt+i+1]
		col[i] = ti
		if ti == 0 {
			for j := 0; j < i; j++ {
				col[j] = 0
			}
			continue
		}
		// T(0:i, i) = -tau_i V(i:n, 0:i)^T v_i, v_i's head 1.
		for j := 0; j < i; j++ {
			s := v[i+j*ldv]
			for l := i + 1; l < n; l++ {
				s += v[l+j*ldv] * v[l+i*ldv]
			}
			col[j] = -ti * s
		}
		// T(0:i, i) = T(0:i, 0:i) T(0:i, i), ascending in place.
		for j := 0; j < i; j++ {
			s := T(0)
			for l := j; l < i; l++ {
				s += t[j+l*ldt] * col[l]
			}
			col[j] = s
		}
	}
}

// wyApply applies H = I - V T V^T or H^T (trans) to the m x n matrix c
// from the left or the right (dlarfb, forward, columnwise). V (m x k on
// the left, n x k on the right) is unit lower trapezoidal below the
// diagonal of v, only read. work needs n*k (left) or m*k (right)
// elements.
func wyApply[T batchlas.Float](left, trans bool, m, n, k int, v []T, ldv int, t []T, ldt int, c []T, ldc int, work []T) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if left {
		// W = C^T V (n x k, leading dimension n).
		w := work[:n*k]
		for j := 0; j < k; j++ {
			for p := 0; p < n; p++ {
				cp := c[p*ldc:]
				s := cp[j]
				for l := j + 1; l < m; l++ {
					s += v[l+j*ldv] * cp[l]
				}
				w[p+j*n] = s
			}
		}
		// H C = C - V (C^T V T^T)^T; H^T C = C - V (C^T V T)^T.
		triMulRight(w, n, n, k, t, ldt, !trans)
		// C -= V W^T.
		for p := 0; p < n; p++ {
			cp := c[p*ldc : p*ldc+m]
			for j := 0; j < k; j++ {
				wj := w[p+j*n]
				cp[j] -= wj
				for l := j + 1; l < m; l++ {
					cp[l] -= v[l+j*ldv] * wj
				}
			}
		}
		return
	}
	// W = C V (m x k, leading dimension m).
	w := work[:m*k]
	for j := 0; j < k; j++ {
		wj := w[j*m : j*m+m]
		copy(wj, c[j*ldc:j*ldc+m])
		for l := j + 1; l < n; l++ {
			vl := v[l+j*ldv]
			cl := c[l*ldc : l*ldc+m]
			for p := range wj {
				wj[p] += vl * cl[p]
			}
		}
	}
	// C H = C - (C V T) V^T; C H^T = C - (C V T^T) V^T.
	triMulRight(w, m, m, k, t, ldt, trans)
	// C -= W V^T.
	for l := 0; l < n; l++ {
		cl := c[l*ldc : l*ldc+m]
		for j := 0; j <= min(l, k-1); j++ {
			vl := vAt(v, ldv, l, j)
			wj := w[j*m : j*m+m]
			for p := range cl {
				cl[p] -= vl * wj[p]
			}
		}
	}
}

// triMulRight overwrites the r x k matrix w (leading dimension ldw) with
// w T, or w T^T when transT, T the k x k upper triangle of t.
func triMulRight[T batchlas.Float](w []T, ldw, r, k int, t []T, ldt int, transT bool) {
	if transT {
		// (w T^T)(p, j) = sum_{l >= j} w(p, l) T(j, l): ascending j.
		for j := 0; j < k; j++ {
			wj := w[j*ldw : j*ldw+r]
			tjj := t[j+j*ldt]
			for p := range wj {
				wj[p] *= tjj
			}
			for l := j + 1; l < k; l++ {
				tjl := t[j+l*ldt]
				wl := w[l*ldw : l*ldw+r]
				for p := range wj {
					wj[p] += tjl * wl[p]
				}
			}
		}
		return
	}
	// (w T)(p, j) = sum_{l <= j} w(p, l) T(l, j): descending j.
	for j := k - 1; j >= 0; j-- {
		wj := w[j*ldw : j*ldw+r]
		tjj := t[j+j*ldt]
		for p := range wj {
			wj[p] *= tjj
		}
		for l := 0; l < j; l++ {
			tlj := t[l+j*ldt]
			wl := w[l*ldw : l*ldw+r]
			for p := range wj {
				wj[p] += tlj * wl[p]
			}
		}
	}
}
