package svd

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanessvd"
)

// GroupSize is the number of matrices JacobiGroup decomposes at once: one
// per vector lane, 8 float64 or 16 float32.
func GroupSize[T batchlas.Float]() int { return lanessvd.Lanes[T]() }

// GroupWorkSize is the workspace (elements of T) JacobiGroup needs for a
// group of m x n matrices with these jobs: each matrix's WorkSize, and the
// group's interleaved copies of the nn x nn matrices the sweeps work on
// and of their rotations.
func GroupWorkSize[T batchlas.Float](m, n int, jobu, jobvt Job) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	L, nn := GroupSize[T](), min(m, n)
	w := L * (WorkSize[T](m, n, jobu, jobvt) + nn*nn)
	if jobVBOf(m, n, jobu, jobvt) != None {
		w += L * nn * nn
	}
	return w
}

// JacobiGroup is Jacobi on count <= GroupSize matrices at once: matrix i
// is a[i*sa:] (leading dimension lda), its values go to s[i*ss:], its
// vectors to u[i*su:] and vt[i*svt:] as Jacobi's; info[i] gets Jacobi's
// info for matrix i. Each matrix is checked, scaled and reduced on its
// own (prepare), the sweeps of all of them run together with one matrix
// per vector lane (lanessvd.Sweeps), each taking as many as the slowest
// needs (a converged matrix is left as it is), and each is finished on its
// own. The results are within Jacobi's bounds but not its bits: the lanes'
// sums use fused multiply-adds. work has GroupWorkSize elements.
func JacobiGroup[T batchlas.Float](count, m, n int, a []T, lda, sa int, s []T, ss int, jobu, jobvt Job, u []T, ldu, su int, vt []T, ldvt, svt int, work []T, info []int32) {
	L := GroupSize[T]()
	per := WorkSize[T](m, n, jobu, jobvt)
	nn := min(m, n)
	if nn <= 0 {
		for i := range count {
			info[i] = int32(Jacobi(m, n, nil, lda, nil, jobu, jobvt, at(u, i*su), ldu, at(vt, i*svt), ldvt, nil))
		}
		return
	}
	if m == n && !groupGeneral {
		groupSquare(count, n, a, lda, sa, s, ss, jobu, jobvt, u, ldu, su, vt, ldvt, svt, work, info)
		return
	}
	var sts [16]stage[T]
	var active uint64
	for i := range count {
		done, inf := sts[i].prepare(m, n, a[i*sa:], lda, s[i*ss:], jobu, jobvt, at(u, i*su), ldu, at(vt, i*svt), ldvt, work[i*per:(i+1)*per])
		info[i] = int32(inf)
		if !done {
			active |= 1 << i
		}
	}
	if active == 0 {
		return
	}
	rest := work[L*per:]
	g := rest[:nn*nn*L]
	var v []T
	if jobVBOf(m, n, jobu, jobvt) != None {
		v = rest[nn*nn*L : 2*nn*nn*L]
	}
	// Interleave: element (r, c) of lane l at (c*nn + r)*L + l. A lane
	// with no matrix holds zeros, an inactive lane, like it, is not
	// swept.
	clear(g)
	if v != nil {
		clear(v)
	}
	for l := range count {
		if active&(1<<l) == 0 {
			continue
		}
		gl := sts[l].g
		for e, x := range gl[:nn*nn] {
			g[e*L+l] = x
		}
		if v != nil {
			for c := range nn {
				v[(c*nn+c)*L+l] = 1
			}
		}
	}
	left := lanessvd.Sweeps(g, v, nn, maxSweeps, active, epsilon[T]()*sqrt(T(nn)), smallSquare[T](), bigZeta[T]())
	for l := range count {
		if active&(1<<l) == 0 {
			continue
		}
		st := &sts[l]
		for e := range st.g[:nn*nn] {
			st.g[e] = g[e*L+l]
		}
		if st.v != nil {
			for e := range st.v[:nn*nn] {
				st.v[e] = v[e*L+l]
			}
		}
		if left&(1<<l) != 0 {
			info[l] = int32(unconverged(nn, st.g, s[l*ss:l*ss+nn]))
		}
		st.finish(s[l*ss:], at(u, l*su), ldu, at(vt, l*svt), ldvt)
	}
}

// jobVBOf is the job of the right vectors of B (A, or A^T when A is
// wide): whether the sweeps accumulate their rotations.
func jobVBOf(m, n int, jobu, jobvt Job) Job {
	if m < n {
		return jobu
	}
	return jobvt
}

// at is x from offset o on, nil for a nil x (vectors not computed).
func at[T batchlas.Float](x []T, o int) []T {
	if x == nil {
		return nil
	}
	return x[o:]
}

// groupGeneral sends square groups through the general path (prepare and
// finish per matrix) instead of groupSquare: for the tests, which compare
// the two bit for bit.
var groupGeneral = false

// lanesOrderMax bounds the orders finishLane takes, for its arrays on the
// stack: gesvd's lanes kernel takes orders up to 32.
const lanesOrderMax = 32

// groupSquare is JacobiGroup for n x n matrices, which need neither a QR
// nor a transposition, with the per-matrix steps that surround the sweeps
// done on the interleaved group: each matrix is checked, scaled and
// written straight into its lane, and its outputs are read straight out
// of the lanes, sorted, signed and unscaled as they are written. At small
// orders these steps, not the sweeps, were most of the time: prepare's
// copy, the lanes' copy back, formU's, writeUB's and fixSigns' passes
// each touched every entry once more. The arithmetic is the general
// path's, operation for operation (the same norms, divisions and
// negations), so the results are the same bits; a lane whose U needs
// completing (a singular value at most eps times the largest) or whose
// sweeps did not converge is finished by the general path instead.
func groupSquare[T batchlas.Float](count, n int, a []T, lda, sa int, s []T, ss int, jobu, jobvt Job, u []T, ldu, su int, vt []T, ldvt, svt int, work []T, info []int32) {
	L := GroupSize[T]()
	per := WorkSize[T](n, n, jobu, jobvt)
	rest := work[L*per:]
	nn := n * n
	g := rest[:nn*L]
	var v []T
	if jobvt != None {
		v = rest[nn*L : 2*nn*L]
	}
	clear(g)
	if v != nil {
		clear(v)
	}
	var exps [16]int
	var active uint64
	for l := range count {
		al := a[l*sa:]
		amax, finite := maxAbs(n, n, al, lda)
		if !finite {
			info[l] = int32(n + 1)
			continue
		}
		info[l] = 0
		active |= 1 << l
		e := scaleExp(amax, n, n)
		exps[l] = e
		f, fast := pow2[T](e)
		for c := range n {
			col := al[c*lda : c*lda+n]
			dst := g[c*n*L+l:]
			if fast {
				for r, x := range col {
					dst[r*L] = x * f
				}
			} else {
				for r, x := range col {
					dst[r*L] = ldexp(x, e)
				}
			}
			if v != nil {
				v[(c*n+c)*L+l] = 1
			}
		}
	}
	if active == 0 {
		return
	}
	left := lanessvd.Sweeps(g, v, n, maxSweeps, active, epsilon[T]()*sqrt(T(n)), smallSquare[T](), bigZeta[T]())
	for l := range count {
		if active&(1<<l) == 0 {
			continue
		}
		sl := s[l*ss : l*ss+n]
		ul, vtl := at(u, l*su), at(vt, l*svt)
		wl := work[l*per : (l+1)*per]
		if left&(1<<l) != 0 || !finishLane(n, L, l, g, v, exps[l], sl, jobu, jobvt, ul, ldu, vtl, ldvt) {
			// The general path, from the lane's swept matrices.
			st := stage[T]{m: n, n: n, k: n, jobu: jobu, jobvt: jobvt, mm: n, nn: n, jobUB: jobu, jobVB: jobvt, e: exps[l]}
			st.g = wl[:nn]
			for e := range st.g {
				st.g[e] = g[e*L+l]
			}
			if v != nil {
				st.v = wl[nn : 2*nn]
				for e := range st.v {
					st.v[e] = v[e*L+l]
				}
			}
			if left&(1<<l) != 0 {
				info[l] = int32(unconverged(n, st.g, sl))
			}
			st.finish(sl, ul, ldu, vtl, ldvt)
		}
	}
}

// finishLane writes lane l's outputs from the swept group (g, and v when
// VT is wanted), as finish would from the lane's copies: the column norms
// sorted descending (stably, as sortDesc), U's columns divided by them,
// V's columns transposed into VT's rows, the sign convention, the values
// unscaled by 2^-e. It returns false, writing nothing, when U is wanted
// and a singular value is not above eps times the largest (that column
// must be completed, by formU), or when n is above lanesOrderMax: the
// general path finishes those.
func finishLane[T batchlas.Float](n, L, l int, g, v []T, e int, s []T, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int) bool {
	if n > lanesOrderMax {
		return false
	}
	var orderBuf [lanesOrderMax]int
	var colBuf, normBuf [lanesOrderMax]T
	order, col, norms := orderBuf[:n], colBuf[:n], normBuf[:n]
	for j := range n {
		for r := range n {
			col[r] = g[(j*n+r)*L+l]
		}
		norms[j] = colNorm(col)
		order[j] = j
	}
	// Stable insertion sort, descending: sortDesc's order.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && norms[order[j]] > norms[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	if jobu != None && !(norms[order[n-1]] > epsilon[T]()*norms[order[0]]) {
		return false
	}
	for k, j := range order {
		sk := norms[j]
		neg := false
		if jobu != None {
			uc := u[k*ldu : k*ldu+n]
			for r := range n {
				uc[r] = g[(j*n+r)*L+l] / sk
			}
			if uc[argmaxAbs(n, uc, 1)] < 0 {
				negate(n, uc, 1)
				neg = true
			}
		}
		if jobvt != None {
			vr := vt[k:]
			for r := range n {
				vr[r*ldvt] = v[(j*n+r)*L+l]
			}
			if jobu == None {
				neg = vr[argmaxAbs(n, vr, ldvt)*ldvt] < 0
			}
			if neg {
				negate(n, vr, ldvt)
			}
		}
	}
	for k, j := range order {
		s[k] = ldexp(norms[j], -e)
	}
	return true
}
