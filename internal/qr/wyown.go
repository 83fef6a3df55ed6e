package qr

import "github.com/batchlas-go/batchlas"

// The blocked forms of Org2r and Orm2r on the compact WY representation
// H_i .. H_{i+ib-1} = I - V T V^T (LAPACK's dorgqr and dormqr with nx =
// 0), on applyBlock: it reads neither V's diagonal nor what is above it,
// nor writes V, so a factor shared by concurrent ormqr calls is read only.

// OrgqrBlocked is Org2r over panels of nb reflectors, last panel first:
// each panel's block reflector is applied to the columns to its right
// (applyBlock), and the panel's own columns formed by Org2r. t needs nb*nb
// elements, work BlockedWork(m, n, nb). nb < 1 or nb >= k is Org2r
// itself.
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
			applyBlock(true, false, m-i, n-i-ib, ib, a[ii:], lda, tau[i:], t, nb, a[ii+ib*lda:], lda, work)
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
// block reflector. a is only read. t needs nb*nb elements, work
// BlockedWork(m, n, nb). nb < 1 or nb >= k is Orm2r itself.
func OrmqrBlocked[T batchlas.Float](left, trans bool, m, n, k int, a []T, lda int, tau []T, c []T, ldc int, nb int, t, work []T) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if nb < 1 || nb >= k {
		Orm2r(left, trans, m, n, k, a, lda, tau, c, ldc, work)
		return
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
		if left {
			applyBlock(true, trans, m-i, n, ib, a[ii:], lda, tau[i:], t, nb, c[i:], ldc, work)
		} else {
			applyBlock(false, trans, m, n-i, ib, a[ii:], lda, tau[i:], t, nb, c[i*ldc:], ldc, work)
		}
	}
}
