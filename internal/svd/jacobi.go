package svd

import (
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/qr"
)

// Job says which singular vectors to compute (LAPACK's jobu/jobvt).
type Job byte

const (
	None Job = 'N' // no vectors
	Thin Job = 'S' // the min(m,n) leading vectors
	All  Job = 'A' // all m (left) or n (right) vectors
)

// WorkSize is the workspace (elements of T) Jacobi needs for one m x n
// matrix with these jobs: with mm = max(m, n) and nn = min(m, n), nn^2
// for the matrix the sweeps work on, nn^2 more when the right vectors of
// the (possibly transposed) problem are accumulated, and mm nn + nn + mm
// for the Householder QR of a non-square matrix (its factor, tau and a
// row of scratch). It is 0 when m or n is 0.
func WorkSize[T batchlas.Float](m, n int, jobu, jobvt Job) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	mm, nn := max(m, n), min(m, n)
	jobVB := jobvt
	if m < n {
		jobVB = jobu
	}
	w := nn * nn
	if jobVB != None {
		w += nn * nn
	}
	if mm > nn {
		w += mm*nn + nn + mm
	}
	return w
}

// Jacobi computes A = U * diag(s) * VT for one m x n column-major matrix a
// (leading dimension lda >= max(1,m)), which it only reads.
// s gets the k = min(m,n) singular values in descending order.
// u (when jobu != None) gets m x ucols, ucols = k for Thin and m for All,
// leading dimension ldu.
// vt (when jobvt != None) gets vrows x n, vrows = k for Thin and n for All,
// leading dimension ldvt.
// work has at least WorkSize elements; its contents on entry do not matter.
// It returns info: 0 on success; k+1 when a holds a NaN or Inf (checked
// before any iteration; then s, and u/vt where computed, are all NaN);
// otherwise, when the iteration did not converge within its sweep limit,
// the number of singular values not converged (>= 1), with the best
// s/u/vt it has written anyway.
//
// jobu and jobvt must each be None, Thin or All. With m or n zero there
// is nothing to compute, except that an All job with a positive dimension
// gets the identity. The package doc describes the algorithm; nothing
// outside the m x ucols part of u, the vrows x n part of vt, s[:k] and
// work is written.
func Jacobi[T batchlas.Float](m, n int, a []T, lda int, s []T, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int, work []T) int {
	k := min(m, n)
	if k <= 0 {
		if jobu == All && m > 0 {
			setIdentity(m, m, u, ldu)
		}
		if jobvt == All && n > 0 {
			setIdentity(n, n, vt, ldvt)
		}
		return 0
	}
	ucols, vrows := k, k
	if jobu == All {
		ucols = m
	}
	if jobvt == All {
		vrows = n
	}
	amax, finite := maxAbs(m, n, a, lda)
	if !finite {
		nan := T(math.NaN())
		for i := range s[:k] {
			s[i] = nan
		}
		if jobu != None {
			fillMat(m, ucols, u, ldu, nan)
		}
		if jobvt != None {
			fillMat(vrows, n, vt, ldvt, nan)
		}
		return k + 1
	}

	// B = A, or A^T when A is wide: mm x nn, mm >= nn. jobUB and jobVB are
	// the jobs of B's own U and V.
	trans := m < n
	mm, nn := m, n
	jobUB, jobVB := jobu, jobvt
	if trans {
		mm, nn = n, m
		jobUB, jobVB = jobvt, jobu
	}
	e := scaleExp(amax, m, n)

	g := work[:nn*nn]
	rest := work[nn*nn:]
	var v []T
	if jobVB != None {
		v = rest[:nn*nn]
		rest = rest[nn*nn:]
	}
	var f, tau, scr []T
	if mm > nn {
		f, tau, scr = rest[:mm*nn], rest[mm*nn:mm*nn+nn], rest[mm*nn+nn:mm*nn+nn+mm]
		load(trans, m, n, a, lda, e, f, mm)
		qr.Geqr2(mm, nn, f, mm, tau, scr)
		for j := 0; j < nn; j++ {
			gj := g[j*nn : j*nn+nn]
			copy(gj[:j+1], f[j*mm:j*mm+j+1])
			clear(gj[j+1:])
		}
	} else {
		load(trans, m, n, a, lda, e, g, nn)
	}

	info := sweeps(nn, g, v, s[:nn])
	for j := 0; j < nn; j++ {
		s[j] = colNorm(g[j*nn : j*nn+nn])
	}
	sortDesc(nn, s, g, v)
	if jobUB != None {
		formU(nn, g, s)
	}
	for j := range s[:nn] {
		s[j] = ldexp(s[j], -e)
	}

	if jobUB != None {
		ucolsB := nn
		if jobUB == All {
			ucolsB = mm
		}
		writeUB(trans, mm, nn, ucolsB, g, f, tau, scr, u, ldu, vt, ldvt)
	}
	if jobVB != None {
		// B's V (nn x nn) is A's U when transposed, else A's V, stored
		// transposed in vt.
		for j := 0; j < nn; j++ {
			vj := v[j*nn : j*nn+nn]
			if trans {
				copy(u[j*ldu:j*ldu+nn], vj)
				continue
			}
			for i, x := range vj {
				vt[j+i*ldvt] = x
			}
		}
	}
	fixSigns(m, n, k, jobu, jobvt, u, ldu, vt, ldvt)
	return info
}

// writeUB writes B's U, mm x ucolsB, from U_R = g (nn x nn, orthogonal):
// U_B = Q [U_R 0; 0 I] when mm > nn, Q held as Householder reflectors in f
// (leading dimension mm) and tau; U_B = U_R when square. Untransposed it
// goes to u; transposed it is A's V, whose transpose goes to vt: there
// C^T Q^T is formed in place, the reflectors applied from the right.
func writeUB[T batchlas.Float](trans bool, mm, nn, ucolsB int, g, f, tau, scr []T, u []T, ldu int, vt []T, ldvt int) {
	// C = [U_R 0; 0 I], element (i, j).
	cij := func(i, j int) T {
		switch {
		case i < nn && j < nn:
			return g[i+j*nn]
		case i == j:
			return 1
		}
		return 0
	}
	if !trans {
		for j := 0; j < ucolsB; j++ {
			col := u[j*ldu : j*ldu+mm]
			if j < nn {
				copy(col, g[j*nn:j*nn+nn])
				clear(col[nn:])
				continue
			}
			for i := range col {
				col[i] = cij(i, j)
			}
		}
		if mm > nn {
			qr.Orm2r(true, false, mm, ucolsB, nn, f, mm, tau, u, ldu, scr)
		}
		return
	}
	// vt (ucolsB x mm) = C^T, then C^T Q^T.
	for i := 0; i < mm; i++ {
		col := vt[i*ldvt : i*ldvt+ucolsB]
		for j := range col {
			col[j] = cij(i, j)
		}
	}
	if mm > nn {
		qr.Orm2r(false, true, ucolsB, mm, nn, f, mm, tau, vt, ldvt, scr)
	}
}
