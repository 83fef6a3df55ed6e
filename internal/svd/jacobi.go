package svd

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/qr"
	"github.com/batchlas-go/batchlas/internal/vec"
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
	w := nn * nn
	if jobVBOf(m, n, jobu, jobvt) != None {
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
// before any iteration; then nothing is written);
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
	var st stage[T]
	if done, info := st.prepare(m, n, a, lda, s, jobu, jobvt, u, ldu, vt, ldvt, work); done {
		return info
	}
	info := sweeps(st.nn, st.g, st.v, s[:st.nn])
	st.finish(s, u, ldu, vt, ldvt)
	return info
}

// stage is one matrix's state between Jacobi's steps: prepare (the
// checks, scaling, transposition and QR), the sweeps on g (and v), and
// finish (values, vectors, signs). JacobiGroup runs the sweeps of a group
// of them across vector lanes instead of one at a time.
type stage[T batchlas.Float] struct {
	m, n, k      int
	jobu, jobvt  Job
	trans        bool // B = A^T: A is wide
	mm, nn       int  // B's shape, mm >= nn
	jobUB, jobVB Job  // the jobs of B's own U and V
	e            int  // A was scaled by 2^-e
	g, v         []T  // nn x nn: R (or B), and the rotations' product
	f, tau, scr  []T  // the QR of a non-square B
}

// prepare checks a, scales it and reduces it to the nn x nn g the sweeps
// work on, in work (WorkSize elements). done is true when nothing is left
// to do: an order of 0 (info 0, identities written for All jobs) or a
// non-finite a (info k+1, nothing written).
func (st *stage[T]) prepare(m, n int, a []T, lda int, s []T, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int, work []T) (done bool, info int) {
	k := min(m, n)
	if k <= 0 {
		if jobu == All && m > 0 {
			setIdentity(m, m, u, ldu)
		}
		if jobvt == All && n > 0 {
			setIdentity(n, n, vt, ldvt)
		}
		return true, 0
	}
	amax, finite := maxAbs(m, n, a, lda)
	if !finite {
		return true, k + 1
	}

	// B = A, or A^T when A is wide: mm x nn, mm >= nn. jobUB and jobVB are
	// the jobs of B's own U and V.
	*st = stage[T]{m: m, n: n, k: k, jobu: jobu, jobvt: jobvt, trans: m < n, mm: m, nn: n, jobUB: jobu, jobVB: jobvt}
	if st.trans {
		st.mm, st.nn = n, m
		st.jobUB, st.jobVB = jobvt, jobu
	}
	mm, nn := st.mm, st.nn
	st.e = scaleExp(amax, m, n)

	st.g = work[:nn*nn]
	rest := work[nn*nn:]
	if st.jobVB != None {
		st.v = rest[:nn*nn]
		rest = rest[nn*nn:]
	}
	if mm > nn {
		st.f, st.tau, st.scr = rest[:mm*nn], rest[mm*nn:mm*nn+nn], rest[mm*nn+nn:mm*nn+nn+mm]
		load(st.trans, m, n, a, lda, st.e, st.f, mm)
		qr.Geqr2(mm, nn, st.f, mm, st.tau, st.scr)
		for j := 0; j < nn; j++ {
			gj := st.g[j*nn : j*nn+nn]
			copy(gj[:j+1], st.f[j*mm:j*mm+j+1])
			clear(gj[j+1:])
		}
	} else {
		load(st.trans, m, n, a, lda, st.e, st.g, nn)
	}
	return false, 0
}

// finish turns the swept g (and v) into the outputs: the column norms
// sorted descending and unscaled into s, U and V written as the jobs ask,
// and the sign convention.
func (st *stage[T]) finish(s []T, u []T, ldu int, vt []T, ldvt int) {
	nn, g, v := st.nn, st.g, st.v
	for j := 0; j < nn; j++ {
		s[j] = colNorm(g[j*nn : j*nn+nn])
	}
	sortDesc(nn, s, g, v)
	if st.jobUB != None {
		formU(nn, g, s)
	}
	st.emit(s, u, ldu, vt, ldvt)
}

// emit writes the outputs from the factorisation of the nn x nn matrix
// the kernel worked on: s[:nn] its singular values (scaled, sorted
// descending), g its orthogonal U (when jobUB asks for it) and v its V
// (when jobVB does). It unscales s, forms A's vectors as the jobs ask and
// applies the sign convention.
func (st *stage[T]) emit(s []T, u []T, ldu int, vt []T, ldvt int) {
	nn, g, v := st.nn, st.g, st.v
	for j := range s[:nn] {
		s[j] = ldexp(s[j], -st.e)
	}

	if st.jobUB != None {
		ucolsB := nn
		if st.jobUB == All {
			ucolsB = st.mm
		}
		writeUB(st.trans, st.mm, nn, ucolsB, g, st.f, st.tau, st.scr, u, ldu, vt, ldvt)
	}
	if st.jobVB != None {
		// B's V (nn x nn) is A's U when transposed, else A's V, stored
		// transposed in vt.
		for j := 0; j < nn; j++ {
			vj := v[j*nn : j*nn+nn]
			if st.trans {
				copy(u[j*ldu:j*ldu+nn], vj)
				continue
			}
			for i, x := range vj {
				vt[j+i*ldvt] = x
			}
		}
	}
	fixSigns(st.m, st.n, st.k, st.jobu, st.jobvt, u, ldu, vt, ldvt)
}

// applyQ sets the mm x ncols matrix c (leading dimension ldc) to Q c, Q =
// H_0 .. H_{k-1} the reflectors of the QR factor f (mm x k, leading
// dimension mm) and tau: qr.Orm2r's left, untransposed product, but each
// reflector applied to every column in one vector kernel call (vec.Reflect)
// rather than a dot product and an update per column, with its leading 1
// written into f for the call and restored, as qr.Geqr2 does (f is this
// package's scratch). On tall 64 x 8 float64 matrices with vectors the
// per-column calls were a third of gesvd's lanes kernel.
func applyQ[T batchlas.Float](mm, ncols, k int, f, tau, c []T, ldc int) {
	for i := k - 1; i >= 0; i-- {
		if tau[i] == 0 {
			continue
		}
		v := f[i+i*mm : (i+1)*mm]
		head := v[0]
		v[0] = 1
		vec.Reflect(v, c[i:], ldc, ncols, tau[i])
		v[0] = head
	}
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
			applyQ(mm, ucolsB, nn, f, tau, u, ldu)
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
