package svd

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanerows"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanessvd"
)

// ValuesGroupMaxElems bounds m*n for ValuesGroup (orders up to 256): the
// group's interleaved matrices take m*n rows of lanes, 4 MiB at the
// bound, past a core's L2 from m*n = 8192 on, where the group still beat
// Bidiag on each matrix on the Zen 3 (docs/decisions.md).
const ValuesGroupMaxElems = 65536

// ValuesGroupWorkSize is the workspace (elements of T) ValuesGroup needs
// for a group of m x n matrices: the interleaved group, its bidiagonals
// and max(m, n)+4 rows of scratch across the lanes, and each lane's
// bidiagonal and dqds arrays.
func ValuesGroupWorkSize[T batchlas.Float](m, n int) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	L := lanes.Lanes[T]()
	mm, nn := max(m, n), min(m, n)
	return L * (mm*nn + 2*nn + mm + 4 + 2*nn + dqdsWork(nn))
}

// ValuesGroup computes the singular values of count <= lanes.Lanes[T]()
// m x n matrices at once, as Bidiag does without vectors: matrix i is
// a[i*sa:] (leading dimension lda), its values go to s[i*ss:] in
// descending order and Bidiag's info to info[i] (min(m, n)+1 for a NaN or
// an infinity, checked before anything else, its values untouched; else
// the superdiagonal entries dqds left). The matrices are interleaved one
// per vector lane (A^T for a wide one), checked and scaled together
// (lanessvd.Scale, the Jacobi group's step), reduced to upper bidiagonal
// form across the lanes (gebd2Lanes), and each lane's bidiagonal goes to
// dqds on its own. The values are within Bidiag's bound (nn eps ||A||),
// not its bits: the reduction's sums are the lanes' (lanerows).
// m*n <= ValuesGroupMaxElems; work has ValuesGroupWorkSize elements.
func ValuesGroup[T batchlas.Float](count, m, n int, a []T, lda, sa int, s []T, ss int, work []T, info []int32) {
	if min(m, n) <= 0 {
		for i := range count {
			info[i] = 0
		}
		return
	}
	L := lanes.Lanes[T]()
	mm, nn := max(m, n), min(m, n)
	g, rest := work[:L*mm*nn], work[L*mm*nn:]
	d, rest := rest[:L*nn], rest[L*nn:]
	e, rest := rest[:L*nn], rest[L*nn:]
	w, rest := rest[:L*(mm+4)], rest[L*(mm+4):]
	per := 2*nn + dqdsWork(nn) // one lane's bidiagonal and dqds arrays
	if m >= n {
		lanes.Gather(g, a, sa, lda, m, n, count, m)
	} else {
		// A^T: the singular values are A's, and the reduction takes
		// tall matrices.
		clear(g)
		for l := range count {
			al := a[l*sa:]
			for c := range n {
				for r := range m {
					g[(r*mm+c)*L+l] = al[c*lda+r]
				}
			}
		}
	}
	var exps [16]int32
	active := lanessvd.Scale(g, mm*nn, uint64(1)<<count-1, scaleTop[T](mm, nn), &exps)
	gebd2Lanes(mm, nn, g, L, d, e, w)
	// The active lanes' bidiagonals to dqds, together (dqdsMany: their
	// chains of divisions side by side).
	var runs [16]dqdsRun[T]
	var ptrs [16]*dqdsRun[T]
	var lanesOf [16]int
	na := 0
	for l := range count {
		if active&(1<<l) == 0 {
			info[l] = int32(nn + 1)
			continue
		}
		buf := rest[na*per : (na+1)*per]
		dl, el := buf[:nn], buf[nn:2*nn]
		for i := range nn {
			dl[i], el[i] = d[i*L+l], e[i*L+l]
		}
		runs[na].start(nn, dl, el, buf[2*nn:per])
		ptrs[na], lanesOf[na] = &runs[na], l
		na++
	}
	dqdsMany(ptrs[:na])
	for j, l := range lanesOf[:na] {
		info[l] = int32(runs[j].finish())
		sl := s[l*ss : l*ss+nn]
		for i, x := range rest[j*per : j*per+nn] {
			sl[i] = ldexp(x, -int(exps[l]))
		}
		sortSelect(nn, sl, nil, nil)
	}
}

// gebd2Lanes reduces every lane's m x n matrix (m >= n >= 1) of the group
// g (element (r, c) of lane l at g[(c*m+r)*L+l]) to upper bidiagonal form
// by Householder reflectors from both sides, as gebd2 does one matrix:
// the diagonal's row of lanes i goes to d[i*L:], the superdiagonal's to
// e[i*L:] (e's last row is zero). The reflectors are applied and then
// dropped: a has no meaning afterwards. w holds (m+4) rows of lanes. The
// group must be scaled as lanessvd.Scale leaves it (sums of squares of a
// column or a row cannot overflow); a reflector whose vector's norm is
// below sqrt(safeMinimum) is taken as the identity, which leaves an error
// far below eps times the scaled matrix's norm.
func gebd2Lanes[T batchlas.Float](m, n int, g []T, L int, d, e, w []T) {
	tau, t := w[:L], w[L:2*L]
	beta, scl := w[2*L:3*L], w[3*L:4*L]
	acc := w[4*L : 4*L+m*L]
	at := func(r, c int) []T { o := (c*m + r) * L; return g[o : o+L : o+L] }
	clear(e[(n-1)*L : n*L])
	for i := range n {
		// H_i on column i, rows i.. (its vector from row i on, 1 first).
		col := g[(i*m+i)*L : (i*m+m)*L]
		larfgLanes(col[:L], col[L:], L, 1, m-i-1, tau, beta, scl)
		copy(d[i*L:(i+1)*L], beta)
		for l := range L {
			col[l] = 1
		}
		for k := i + 1; k < n; k++ {
			ck := g[(k*m+i)*L : (k*m+m)*L]
			lanerows.DotRows(t, col, ck)
			for l := range L {
				t[l] = -tau[l] * t[l]
			}
			lanerows.AxpyRows(ck, col, t)
		}
		if i+1 >= n {
			break
		}
		// G_i on row i, columns i+1.. (its vector from column i+1 on, 1
		// first): the row's entries are a column apart.
		var x []T // row i from column i+2 on, when there is one
		if i+2 < n {
			x = g[((i+2)*m+i)*L:]
		}
		larfgLanes(at(i, i+1), x, L, m, n-i-2, tau, beta, scl)
		copy(e[i*L:(i+1)*L], beta)
		u := at(i, i+1)
		for l := range L {
			u[l] = 1
		}
		// Rows i+1.. from the right: acc = A u, then A -= tau acc u^T.
		rows := acc[:(m-i-1)*L]
		clear(rows)
		for k := i + 1; k < n; k++ {
			lanerows.AxpyRows(rows, g[(k*m+i+1)*L:(k*m+m)*L], at(i, k))
		}
		for k := i + 1; k < n; k++ {
			uk := at(i, k)
			for l := range L {
				t[l] = -tau[l] * uk[l]
			}
			lanerows.AxpyRows(g[(k*m+i+1)*L:(k*m+m)*L], rows, t)
		}
	}
}

// larfgLanes is qr.Larfg on every lane at once: alpha (a row of lanes)
// and x (rows rows of lanes, stride rows of lanes apart) make the
// reflector's beta (into beta; alpha is left for the caller), tau =
// (beta - alpha)/beta, and its vector's tail x/(alpha - beta) in place of
// x. A lane whose x has a norm below sqrt(safeMinimum) gets tau = 0 and
// beta = alpha, its x left as it is. scl is a row of scratch.
func larfgLanes[T batchlas.Float](alpha, x []T, L, stride, rows int, tau, beta, scl []T) {
	clear(scl[:L])
	for r := range rows {
		xr := x[r*stride*L : r*stride*L+L]
		for l, v := range xr {
			scl[l] += v * v
		}
	}
	small := sqrt(safeMinimum[T]())
	for l := range L {
		a, ss := alpha[l], scl[l]
		if !(sqrt(ss) >= small) {
			tau[l], beta[l], scl[l] = 0, a, 1
			continue
		}
		b := sqrt(a*a + ss)
		if a >= 0 {
			b = -b
		}
		tau[l], beta[l], scl[l] = (b-a)/b, b, 1/(a-b)
	}
	for r := range rows {
		xr := x[r*stride*L : r*stride*L+L]
		for l := range xr {
			xr[l] *= scl[l]
		}
	}
}
