package svd

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/qr"
)

// BidiagWorkSize is the workspace (elements of T) Bidiag needs for one
// m x n matrix with these jobs: Jacobi's (WorkSize: the nn x nn matrix,
// its right vectors and the QR of a non-square matrix), and 9 nn more for
// the bidiagonal, the reflectors' factors, two vectors of scratch and
// bdsqr's rotations (or dqds's arrays, as large).
func BidiagWorkSize[T batchlas.Float](m, n int, jobu, jobvt Job) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	nn := min(m, n)
	return WorkSize[T](m, n, jobu, jobvt) + 5*nn + bdsqrWork(nn)
}

// Bidiag is Jacobi's contract (same arguments, outputs, info codes, sign
// convention and workspace rules, with BidiagWorkSize) computed the way
// LAPACK's xGESVD computes it: after the same checks, scaling,
// transposition and QR of a tall matrix (steps 1-4 of the package doc),
// the nn x nn matrix is reduced to upper bidiagonal form by Householder
// reflectors from both sides (xGEBD2: B = Q^T R P), Q and P are formed
// from them where their vectors are wanted (xORGBR), and implicit QR on
// the bidiagonal (bdsqr) accumulates its rotations into them; without
// vectors the bidiagonal's values come from dqds (LAPACK's choice too). The
// singular values are made positive (negating V's column) and sorted
// descending by selection, which moves each column at most once, and the
// vectors leave as Jacobi's do. Its cost, about 8nn^3/3 for the reduction
// and a few nn^3 for the rotations, does not grow with how far the
// matrix is from diagonal, as Jacobi's sweeps do: it is the kernel for
// larger orders. The singular values are accurate to nn eps ||A||, not
// relatively as Jacobi's on graded matrices.
func Bidiag[T batchlas.Float](m, n int, a []T, lda int, s []T, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int, work []T) int {
	var st stage[T]
	if done, info := st.prepare(m, n, a, lda, s, jobu, jobvt, u, ldu, vt, ldvt, work); done {
		return info
	}
	nn, g := st.nn, st.g
	rest := work[WorkSize[T](m, n, jobu, jobvt):]
	d, e := rest[:nn], rest[nn:2*nn]
	tauq, taup := rest[2*nn:3*nn], rest[3*nn:4*nn]
	scr := rest[4*nn : 5*nn]
	rot := rest[5*nn : 5*nn+bdsqrWork(nn)]

	gebd2(nn, g, nn, d, e, tauq, taup, scr, rot)
	wantU, wantV := st.jobUB != None, st.jobVB != None
	// P's reflectors sit in g's rows, which forming Q overwrites: P first.
	if wantV {
		formP(nn, g, nn, taup, st.v, scr)
	}
	var ug, vg []T
	if wantU {
		qr.Org2r(nn, nn, nn, g, nn, tauq, scr)
		ug = g
	}
	if wantV {
		vg = st.v
	}
	var info int
	if wantU || wantV {
		info = bdsqr(nn, d, e, ug, nn, nn, vg, nn, nn, rot)
	} else {
		// Values only: dqds, several times cheaper than bdsqr's rotations
		// with nothing to accumulate them into (its scratch is the same).
		info = dqds(nn, d, e, rot)
	}

	// Positive values, negating V's column (or U's, when V is not kept:
	// either pair of signs is a valid factorisation, and fixSigns settles
	// the convention afterwards).
	for j := range d[:nn] {
		if d[j] < 0 {
			d[j] = -d[j]
			switch {
			case wantV:
				negate(nn, vg[j*nn:], 1)
			case wantU:
				negate(nn, ug[j*nn:], 1)
			}
		}
	}
	copy(s[:nn], d[:nn])
	sortSelect(nn, s, ug, vg)
	st.emit(s, u, ldu, vt, ldvt)
	return info
}

// gebd2 reduces the n x n matrix a (leading dimension lda) to upper
// bidiagonal form B = Q^T A P by Householder reflectors (LAPACK's xGEBD2
// for m = n): Q = H_0 ... H_{n-1}, H_i zeroing column i below the
// diagonal (its vector below the diagonal of a, tauq[i]); P = G_0 ...
// G_{n-3}, G_i zeroing row i right of the superdiagonal (its vector in
// row i right of the superdiagonal, taup[i]; taup[n-2] and taup[n-1] are
// 0). d gets B's diagonal and e[:n-1] its superdiagonal. row and w are
// n-element scratch: the row's reflector is built contiguously in row,
// and applied from the right through w (qr.Larf).
func gebd2[T batchlas.Float](n int, a []T, lda int, d, e, tauq, taup, row, w []T) {
	for i := range n {
		ii := i + i*lda
		col := a[ii : i*lda+n]
		tauq[i] = qr.Larfg(n-i, &col[0], col[1:])
		d[i] = col[0]
		if i+1 < n {
			col[0] = 1
			qr.Larf(true, n-i, n-i-1, col, tauq[i], a[ii+lda:], lda, nil)
		}
		col[0] = d[i]
		if i+1 >= n {
			taup[i] = 0
			break
		}
		r := row[:n-i-1]
		for j := range r {
			r[j] = a[i+(i+1+j)*lda]
		}
		taup[i] = qr.Larfg(len(r), &r[0], r[1:])
		e[i] = r[0]
		r[0] = 1
		// G_i on a[i+1:n, i+1:n] from the right.
		qr.Larf(false, n-i-1, n-i-1, r, taup[i], a[ii+1+lda:], lda, w)
		r[0] = e[i]
		for j := range r {
			a[i+(i+1+j)*lda] = r[j]
		}
	}
}

// formP writes P = G_0 ... G_{n-3} (gebd2's right reflectors, in the rows
// of a) into v (n x n, leading dimension n): P = diag(1, P'), and P' is
// xORG2R's product of the reflectors laid out as the columns of an
// (n-1) x (n-1) matrix, which is where they go, transposed (LAPACK's
// xORGBR for P^T, kept untransposed here: bdsqr rotates V's columns).
func formP[T batchlas.Float](n int, a []T, lda int, taup []T, v, work []T) {
	clear(v[:n*n])
	v[0] = 1
	if n == 1 {
		return
	}
	// Column j of P' (v's column j+1, from row 1) holds reflector j: its
	// entries in a's row j from column j+2 on.
	for j := 0; j < n-1; j++ {
		pc := v[(j+1)*n+1 : (j+1)*n+n]
		for r := j + 1; r < n-1; r++ {
			pc[r] = a[j+(r+1)*lda]
		}
	}
	qr.Org2r(n-1, n-1, n-2, v[n+1:], n, taup, work)
}

// sortSelect sorts s[:n] descending by selection, exchanging the columns
// of g and v (n x n, leading dimension n; either may be nil) alike: each
// column moves at most once, where an insertion sort could move each n
// times (bdsqr leaves the values in no particular order). Of equal values
// the first stays first, so an identity matrix gives U = V = I.
func sortSelect[T batchlas.Float](n int, s, g, v []T) {
	for i := 0; i < n-1; i++ {
		best := i
		for j := i + 1; j < n; j++ {
			if s[j] > s[best] {
				best = j
			}
		}
		if best == i {
			continue
		}
		s[i], s[best] = s[best], s[i]
		if g != nil {
			swapCols(g, n, i, best)
		}
		if v != nil {
			swapCols(v, n, i, best)
		}
	}
}
