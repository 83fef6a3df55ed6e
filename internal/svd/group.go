package svd

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/lanessvd"
)

// GroupSize is the number of matrices JacobiGroup decomposes at once: two
// halves of one per vector lane each, 16 float64 or 32 float32, whose
// sweeps run interleaved (lanessvd.Sweeps2).
func GroupSize[T batchlas.Float]() int { return 2 * lanessvd.Lanes[T]() }

// GroupMaxOrder is the largest min(m, n) JacobiGroup takes: the lanes
// sweeps' (lanessvd.MaxOrder).
const GroupMaxOrder = lanessvd.MaxOrder

// GroupWorkSize is the workspace (elements of T) JacobiGroup needs for a
// group of m x n matrices with these jobs: two halves' (halfWorkSize).
func GroupWorkSize[T batchlas.Float](m, n int, jobu, jobvt Job) int {
	return 2 * halfWorkSize[T](m, n, jobu, jobvt)
}

// halfWorkSize is one half's workspace: each matrix's WorkSize, and the
// half's interleaved copies of the nn x nn matrices the sweeps work on
// and of their rotations.
func halfWorkSize[T batchlas.Float](m, n int, jobu, jobvt Job) int {
	if m <= 0 || n <= 0 {
		return 0
	}
	L, nn := lanessvd.Lanes[T](), min(m, n)
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
// own (prepare), the sweeps of a half of the group run together with one
// matrix per vector lane (lanessvd.Sweeps), the two halves' interleaved
// (lanessvd.Sweeps2), each matrix taking as many sweeps as the slowest of
// its half needs (a converged matrix is left as it is), and each is
// finished on its own. The results are within Jacobi's bounds but not its
// bits: the lanes' sums use fused multiply-adds. They do not depend on
// which half, or which lane, a matrix is in. min(m, n) <= GroupMaxOrder;
// work has GroupWorkSize elements.
func JacobiGroup[T batchlas.Float](count, m, n int, a []T, lda, sa int, s []T, ss int, jobu, jobvt Job, u []T, ldu, su int, vt []T, ldvt, svt int, work []T, info []int32) {
	if min(m, n) <= 0 {
		for i := range count {
			info[i] = int32(Jacobi(m, n, nil, lda, nil, jobu, jobvt, at(u, i*su), ldu, at(vt, i*svt), ldvt, nil))
		}
		return
	}
	L := lanessvd.Lanes[T]()
	hw := halfWorkSize[T](m, n, jobu, jobvt)
	half := func(first, cnt int, w []T) *groupHalf[T] {
		return &groupHalf[T]{count: cnt, m: m, n: n, a: a[first*sa:], lda: lda, sa: sa, s: s[first*ss:], ss: ss,
			jobu: jobu, jobvt: jobvt, u: at(u, first*su), ldu: ldu, su: su, vt: at(vt, first*svt), ldvt: ldvt, svt: svt,
			work: w, info: info[first : first+cnt]}
	}
	nn := min(m, n)
	tol, small, big := epsilon[T]()*sqrt(T(nn)), smallSquare[T](), bigZeta[T]()
	h1 := half(0, min(count, L), work[:hw])
	h1.prepare()
	h2 := &groupHalf[T]{} // no matrix: never active
	if count > L {
		h2 = half(L, count-L, work[hw:2*hw])
		h2.prepare()
	}
	// A half with no active lane has no interleaved group to sweep.
	switch {
	case h1.active != 0 && h2.active != 0:
		l1, l2 := lanessvd.Sweeps2(h1.g, h1.v, h2.g, h2.v, nn, maxSweeps, h1.active, h2.active, tol, small, big)
		h1.finish(l1)
		h2.finish(l2)
	case h1.active != 0:
		h1.finish(lanessvd.Sweeps(h1.g, h1.v, nn, maxSweeps, h1.active, tol, small, big))
	case h2.active != 0:
		h2.finish(lanessvd.Sweeps(h2.g, h2.v, nn, maxSweeps, h2.active, tol, small, big))
	}
}

// groupHalf is one half of a JacobiGroup call: up to lanessvd.Lanes
// matrices, their outputs (offset to its first matrix), its workspace,
// and, between prepare and finish, its interleaved g and v and its active
// lanes. Square matrices take groupSquare's path (exps), the others the
// general one (sts).
type groupHalf[T batchlas.Float] struct {
	count, m, n int
	a           []T
	lda, sa     int
	s           []T
	ss          int
	jobu, jobvt Job
	u           []T
	ldu, su     int
	vt          []T
	ldvt, svt   int
	work        []T
	info        []int32
	g, v        []T
	active      uint64
	square      bool
	exps        [16]int32
	sts         [16]stage[T]
}

// prepare checks, scales and reduces each matrix and lays the half's
// matrices out in g (and the identity in v) for the sweeps, one per lane;
// a lane with no matrix, or a non-finite one (info nn+1), is not active.
func (h *groupHalf[T]) prepare() {
	h.square = h.m == h.n && !groupGeneral
	if h.square {
		h.prepareSquare()
		return
	}
	L := lanessvd.Lanes[T]()
	m, n, nn := h.m, h.n, min(h.m, h.n)
	per := WorkSize[T](m, n, h.jobu, h.jobvt)
	for i := range h.count {
		done, inf := h.sts[i].prepare(m, n, h.a[i*h.sa:], h.lda, h.s[i*h.ss:], h.jobu, h.jobvt, at(h.u, i*h.su), h.ldu, at(h.vt, i*h.svt), h.ldvt, h.work[i*per:(i+1)*per])
		h.info[i] = int32(inf)
		if !done {
			h.active |= 1 << i
		}
	}
	if h.active == 0 {
		return
	}
	rest := h.work[L*per:]
	h.g = rest[:nn*nn*L]
	if jobVBOf(m, n, h.jobu, h.jobvt) != None {
		h.v = rest[nn*nn*L : 2*nn*nn*L]
	}
	// Interleave: element (r, c) of lane l at (c*nn + r)*L + l. A lane
	// with no matrix holds zeros, an inactive lane, like it, is not
	// swept.
	clear(h.g)
	if h.v != nil {
		clear(h.v)
	}
	for l := range h.count {
		if h.active&(1<<l) == 0 {
			continue
		}
		for e, x := range h.sts[l].g[:nn*nn] {
			h.g[e*L+l] = x
		}
		if h.v != nil {
			for c := range nn {
				h.v[(c*nn+c)*L+l] = 1
			}
		}
	}
}

// finish writes each active matrix's outputs from the swept half; left
// names the lanes whose sweeps did not converge.
func (h *groupHalf[T]) finish(left uint64) {
	if h.square {
		h.finishSquare(left)
		return
	}
	L := lanessvd.Lanes[T]()
	nn := min(h.m, h.n)
	for l := range h.count {
		if h.active&(1<<l) == 0 {
			continue
		}
		st := &h.sts[l]
		for e := range st.g[:nn*nn] {
			st.g[e] = h.g[e*L+l]
		}
		if st.v != nil {
			for e := range st.v[:nn*nn] {
				st.v[e] = h.v[e*L+l]
			}
		}
		sl := h.s[l*h.ss : l*h.ss+nn]
		if left&(1<<l) != 0 {
			h.info[l] = int32(unconverged(nn, st.g, sl))
		}
		st.finish(h.s[l*h.ss:], at(h.u, l*h.su), h.ldu, at(h.vt, l*h.svt), h.ldvt)
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

// lanesOrderMax bounds the orders finishLane and lanessvd.Finish take,
// for their arrays on the stack: gesvd's lanes kernel takes orders up to
// 32.
const lanesOrderMax = lanessvd.MaxFinishOrder

// prepareSquare and finishSquare are prepare and finish for n x n
// matrices, which need neither a QR nor a transposition, with the
// per-matrix steps that surround the sweeps done on the interleaved
// group: each matrix is copied straight into its lane and the lanes are
// checked and scaled together (lanessvd.Scale), and the outputs are made
// across the lanes, sorted, signed and unscaled (lanessvd.Finish), then
// copied straight out of them (finishLane does a lane Finish leaves, one
// lane at a time). At small orders these steps,
// not the sweeps, were most of the time: prepare's copy, the lanes' copy
// back, formU's, writeUB's and fixSigns' passes each touched every entry
// once more. The arithmetic is the general path's, operation for
// operation (the same norms, divisions and negations), so the results are
// the same bits; a lane whose U needs completing (a singular value at
// most eps times the largest) or whose sweeps did not converge is
// finished by the general path instead.
func (h *groupHalf[T]) prepareSquare() {
	L := lanessvd.Lanes[T]()
	n := h.n
	per := WorkSize[T](n, n, h.jobu, h.jobvt)
	rest := h.work[L*per:]
	nn := n * n
	h.g = rest[:nn*L]
	if h.jobvt != None {
		h.v = rest[nn*L : 2*nn*L]
	}
	if h.v != nil {
		clear(h.v)
	}
	// Each matrix raw into its lane (the lanes past count zero), then
	// every lane checked and scaled at once, as prepare's maxAbs and
	// scaleExp do each matrix.
	lanes.Gather(h.g, h.a, h.sa, h.lda, n, n, h.count, n)
	h.active = lanessvd.Scale(h.g, n*n, uint64(1)<<h.count-1, scaleTop[T](n, n), &h.exps)
	for l := range h.count {
		if h.active&(1<<l) == 0 {
			h.info[l] = int32(n + 1)
			continue
		}
		h.info[l] = 0
		if h.v != nil {
			for c := range n {
				h.v[(c*n+c)*L+l] = 1
			}
		}
	}
}

func (h *groupHalf[T]) finishSquare(left uint64) {
	L := lanessvd.Lanes[T]()
	n := h.n
	per := WorkSize[T](n, n, h.jobu, h.jobvt)
	nn := n * n
	// The converged lanes' outputs across the lanes at once
	// (lanessvd.Finish): finishLane's operations (its norms from the
	// plain sums, its sort, divisions, signs and ldexp), so its bits, in
	// place in g and v, from where U's columns and VT's rows are copied;
	// a lane with a sum colNorm must redo scaled, or a column of U to
	// complete, is left to finishLane and the general path.
	todo := h.active
	if n <= lanesOrderMax {
		done := lanessvd.Finish(h.g, h.v, n, h.active&^left, &h.exps, plainNormMin[T](), epsilon[T](), h.jobu != None, h.s, h.ss)
		todo &^= done
		if h.jobu != None {
			lanes.Scatter(h.u, h.g, h.su, h.ldu, n, n, done, n)
		}
		for l := range h.count {
			if done&(1<<l) == 0 || h.jobvt == None {
				continue
			}
			// VT's rows are V's columns: Scatter's transpose.
			vt := h.vt[l*h.svt:]
			for k := range n {
				for r := range n {
					vt[k+r*h.ldvt] = h.v[(k*n+r)*L+l]
				}
			}
		}
		if todo == 0 {
			return
		}
	}
	// Every lane's plain sums of squares of its columns (colNorm's first
	// sum, the same expression in the same row order), made a row of
	// lanes at a time: one chain of additions per lane and column side by
	// side, where colNorm on each lane's column waited on one.
	var sumBuf [lanesOrderMax * 16]T
	sums := sumBuf[:0]
	if n <= lanesOrderMax {
		sums = sumBuf[:n*L]
		for j := range n {
			acc := sums[j*L : j*L+L]
			for r := range n {
				row := h.g[(j*n+r)*L : (j*n+r)*L+L]
				for l, x := range row {
					acc[l] += x * x
				}
			}
		}
	}
	for l := range h.count {
		if todo&(1<<l) == 0 {
			continue
		}
		sl := h.s[l*h.ss : l*h.ss+n]
		ul, vtl := at(h.u, l*h.su), at(h.vt, l*h.svt)
		wl := h.work[l*per : (l+1)*per]
		if left&(1<<l) != 0 || !finishLane(n, L, l, h.g, h.v, sums, int(h.exps[l]), sl, h.jobu, h.jobvt, ul, h.ldu, vtl, h.ldvt) {
			// The general path, from the lane's swept matrices.
			st := stage[T]{m: n, n: n, k: n, jobu: h.jobu, jobvt: h.jobvt, mm: n, nn: n, jobUB: h.jobu, jobVB: h.jobvt, e: int(h.exps[l])}
			st.g = wl[:nn]
			for e := range st.g {
				st.g[e] = h.g[e*L+l]
			}
			if h.v != nil {
				st.v = wl[nn : 2*nn]
				for e := range st.v {
					st.v[e] = h.v[e*L+l]
				}
			}
			if left&(1<<l) != 0 {
				h.info[l] = int32(unconverged(n, st.g, sl))
			}
			st.finish(sl, ul, h.ldu, vtl, h.ldvt)
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
func finishLane[T batchlas.Float](n, L, l int, g, v, sums []T, e int, s []T, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int) bool {
	if n > lanesOrderMax {
		return false
	}
	var orderBuf [lanesOrderMax]int
	var colBuf, normBuf [lanesOrderMax]T
	order, col, norms := orderBuf[:n], colBuf[:n], normBuf[:n]
	for j := range n {
		order[j] = j
		// colNorm's plain case from the lane's sum; its scaled one from
		// the column.
		if ss := sums[j*L+l]; plainSumHolds(ss) {
			norms[j] = sqrt(ss)
			continue
		}
		for r := range n {
			col[r] = g[(j*n+r)*L+l]
		}
		norms[j] = colNorm(col)
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
