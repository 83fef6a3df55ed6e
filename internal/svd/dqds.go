package svd

import "github.com/batchlas-go/batchlas"

// dqdsIterPerValue bounds dqds: at most this many transforms per singular
// value on average, rejected ones (a shift found too large) included.
const dqdsIterPerValue = 30

// dqdsWork is the scratch dqds needs at order n: the squares of B's
// entries and the transform's output beside them.
func dqdsWork(n int) int { return 4 * n }

// dqds computes the singular values of the n x n upper bidiagonal matrix B
// (diagonal d[:n], superdiagonal e[:n-1]) by the differential
// quotient-difference algorithm with shifts (Fernando and Parlett): for
// callers that want no vectors, in place of bdsqr. It works on the squares
// of B's entries (the qd array of B^T B) and needs one division per step
// and no square root, where bdsqr's rotations need two of each: a chain of
// dependent divisions and square roots is what bounds both.
//
// d gets the singular values, nonnegative and unsorted; e is destroyed;
// work holds dqdsWork(n). It returns 0, or when the transforms allowed
// are spent, the number of superdiagonal entries not yet negligible (as
// bdsqr), with d holding estimates for the values not converged. Every
// test that decides convergence or accepts a shift is written so that NaN
// fails it.
//
// The array is processed one unreduced block at a time from the bottom.
// Each transform of a block with shift tau yields the qd array of
// B^T B - tau I, accepted only when every new entry is positive (the
// shifted matrix still positive definite); the accumulated shift sigma
// plus the block's last entry is a converged value once the entry above
// it is negligible against it (relatively: the values keep the relative
// accuracy dqds is known for, down to those whose square underflows once
// B is scaled to 1, which are far below eps times the largest: their
// absolute accuracy is what Bidiag promises).
//
// The shift is an estimate of the smallest eigenvalue less a margin: the
// smaller eigenvalue of the trailing 2x2 of B B^T, capped by dmin, the
// smallest d of the last transform on the same bottom entry (each bounds
// the smallest eigenvalue from above, and both come close to it as the
// bottom converges). The margin starts at 1/8 for each new bottom entry,
// shrinks by 8 with each accepted transform (down to 4 tol) and grows by
// 8 with each rejected one, up to no shift at all, which always succeeds.
// On random bidiagonals of order 32 and 128 this takes 7 to 9 transforms
// per value, rejected ones included (1.4 to 3.1 of them): more than
// LAPACK's xLASQ2 takes with its finer shifts, but each is cheap.
func dqds[T batchlas.Float](n int, d, e, work []T) int {
	var r dqdsRun[T]
	r.start(n, d, e, work)
	for r.next() {
		r.took(dqdsStep(r.block(r.q), r.block(r.qe), r.block(r.p), r.block(r.pe), r.tau))
	}
	return r.finish()
}

// dqdsMany runs dqds on each of runs (started, at most 16): in rounds
// that make every transform the runs want, four at a time (dqdsStep4)
// and then two (dqdsStep2), independent chains of divisions the core
// overlaps where one alone waits on each division. Each run gets exactly
// dqds' operations, so its bits and info (finish gives them).
func dqdsMany[T batchlas.Float](runs []*dqdsRun[T]) {
	var wants [16]int
	for {
		nw := 0
		for i, r := range runs {
			if r.next() {
				wants[nw] = i
				nw++
			}
		}
		if nw == 0 {
			return
		}
		w := wants[:nw]
		for len(w) >= 4 {
			a, b, c, d := runs[w[0]], runs[w[1]], runs[w[2]], runs[w[3]]
			res := dqdsStep4([4][]T{a.block(a.q), b.block(b.q), c.block(c.q), d.block(d.q)},
				[4][]T{a.block(a.qe), b.block(b.qe), c.block(c.qe), d.block(d.qe)},
				[4][]T{a.block(a.p), b.block(b.p), c.block(c.p), d.block(d.p)},
				[4][]T{a.block(a.pe), b.block(b.pe), c.block(c.pe), d.block(d.pe)},
				[4]T{a.tau, b.tau, c.tau, d.tau})
			for j, r := range [4]*dqdsRun[T]{a, b, c, d} {
				r.took(res.dmin[j], res.ok[j])
			}
			w = w[4:]
		}
		if len(w) >= 2 {
			a, b := runs[w[0]], runs[w[1]]
			nda, oka, ndb, okb := dqdsStep2(a.block(a.q), a.block(a.qe), a.block(a.p), a.block(a.pe), a.tau,
				b.block(b.q), b.block(b.qe), b.block(b.p), b.block(b.pe), b.tau)
			a.took(nda, oka)
			b.took(ndb, okb)
			w = w[2:]
		}
		if len(w) == 1 {
			a := runs[w[0]]
			a.took(dqdsStep(a.block(a.q), a.block(a.qe), a.block(a.p), a.block(a.pe), a.tau))
		}
	}
}

// dqdsRun is dqds' state between the transforms it asks for: start
// scales the array, next runs the deflation and the shift's choice up to
// the next transform (of the block q[lo:hi+1] with shift tau) and reports
// whether there is one, took accepts or rejects its result, and finish
// writes the values and returns the info. The driver (dqds, dqdsMany)
// makes each transform with dqdsStep, dqdsStep2 or dqdsStep4.
type dqdsRun[T batchlas.Float] struct {
	d, q, qe, p, pe     []T
	mx, tol, tol2       T
	sigma, dmin, margin T
	est, tau            T
	iters, maxIters     int
	hi, lo, marginAt    int
	retry, stopped      bool
}

// start sets up the run for B = (d[:n], e[:n-1]); a run with nothing to
// iterate (n <= 1, B zero) is left stopped with d final.
func (r *dqdsRun[T]) start(n int, d, e, work []T) {
	*r = dqdsRun[T]{stopped: true}
	if n <= 0 {
		return
	}
	d = d[:n]
	r.d = d
	if n == 1 {
		d[0] = abs(d[0])
		return
	}
	e = e[:n-1]
	var mx T
	for _, x := range d {
		mx = max(mx, abs(x))
	}
	for _, x := range e {
		mx = max(mx, abs(x))
	}
	if !(mx > 0) { // all zero: the values are; NaN is the caller's to rule out
		for i := range d {
			d[i] = abs(d[i])
		}
		return
	}
	// The squares of B's entries scaled to at most 1: nothing overflows,
	// and what underflows is below eps^2 of the largest value squared.
	q, qe := work[:n], work[n:2*n]
	r.p, r.pe = work[2*n:3*n], work[3*n:4*n]
	for i, x := range d {
		x /= mx
		q[i] = x * x
	}
	// A square below the smallest normal number splits B there: a
	// subnormal entry in the transform's divisions could overflow t.
	for i, x := range e {
		x /= mx
		if qe[i] = x * x; qe[i] < safeMinimum[T]() {
			qe[i] = 0
		}
	}
	qe[n-1] = 0
	// From here d holds, at the bottom index of each block split off the
	// one being worked on, the shift that block carries, and at each
	// converged index the value's square.
	clear(d)
	r.q, r.qe, r.mx = q, qe, mx
	r.tol = 100 * epsilon[T]()
	r.tol2 = r.tol * r.tol
	r.maxIters = dqdsIterPerValue * n
	r.hi, r.lo = n-1, n // lo > hi: no block started
	r.margin, r.marginAt = 1, -1
	r.stopped = false
}

// next runs until the next transform and reports whether there is one:
// the block q[lo:hi+1] with shift tau.
func (r *dqdsRun[T]) next() bool {
	if r.stopped {
		return false
	}
	if r.retry {
		r.retry = false
		return true
	}
	q, qe, d := r.q, r.qe, r.d
	for r.hi >= 0 {
		hi := r.hi
		if hi < r.lo {
			// A new block ends at hi: the shift stored for it, and its top.
			// (dmin belongs to the last bottom entry, marginAt, which is
			// not hi: it is not read for this block's first shift.)
			r.sigma = d[hi]
			r.lo = splitBelow(qe, 0, hi)
		} else if l := splitBelow(qe, r.lo, hi); l > r.lo {
			// An entry of the block became zero: the part above it keeps
			// the shift it has now.
			d[l-1] = r.sigma
			r.lo = l
		}
		lo, sigma := r.lo, r.sigma
		if lo == hi {
			d[hi] = q[hi] + sigma
			r.hi--
			continue
		}
		if qe[hi-1] <= r.tol2*(sigma+q[hi]) {
			d[hi] = q[hi] + sigma
			r.hi--
			continue
		}
		if hi-1 == lo || qe[hi-2] <= r.tol2*(sigma+q[hi-1]) {
			// The trailing 2x2 of B^T B - sigma stands alone.
			big, small := eig2(q[hi-1], qe[hi-1], q[hi])
			d[hi-1], d[hi] = big+sigma, small+sigma
			r.hi -= 2
			continue
		}
		if r.iters >= r.maxIters {
			break
		}
		// The shift: the smaller eigenvalue of the trailing 2x2, capped by
		// dmin (both bound the smallest eigenvalue from above), less a
		// margin that shrinks by 8 with every accepted shift on this bottom
		// entry and grows by 8 with every rejected one, down to no shift.
		_, est := eig2(q[hi-1], qe[hi-1], q[hi])
		if r.dmin > 0 && hi == r.marginAt {
			est = min(est, r.dmin)
		}
		if hi != r.marginAt {
			r.margin, r.marginAt = 1.0/8, hi
		}
		r.est = est
		r.shift()
		return true
	}
	r.stopped = true
	return false
}

// block is x's entries of the block the next transform takes.
func (r *dqdsRun[T]) block(x []T) []T { return x[r.lo : r.hi+1] }

// shift sets tau from est and the margin, counting the transform.
func (r *dqdsRun[T]) shift() {
	r.tau = r.est * (1 - r.margin)
	if r.margin >= 1 {
		r.tau = 0
	}
	r.iters++
}

// took takes the transform's result: dmin and whether it was accepted.
func (r *dqdsRun[T]) took(nd T, ok bool) {
	lo, hi := r.lo, r.hi
	if ok {
		copy(r.q[lo:hi+1], r.p[lo:hi+1])
		copy(r.qe[lo:hi], r.pe[lo:hi])
		r.sigma += r.tau
		r.dmin = nd
		r.margin = max(r.margin/8, 4*r.tol)
		return
	}
	if r.tau == 0 || r.iters >= r.maxIters {
		// A zero shift fails only on NaN, which finite input cannot
		// produce; stop with what has converged.
		r.iters = r.maxIters
		return
	}
	r.margin = min(r.margin*8, 1)
	r.shift()
	r.retry = true
}

// finish writes the values into d and returns the info.
func (r *dqdsRun[T]) finish() int {
	if r.q == nil {
		return 0 // started stopped: d is final
	}
	d, q, qe := r.d, r.q, r.qe
	info := 0
	if r.hi >= 0 {
		for i := range r.hi {
			if qe[i] != 0 {
				info++
			}
		}
		for i := 0; i <= r.hi; i++ {
			d[i] = q[i] // an estimate of the square, unshifted
		}
	}
	for i, x := range d {
		d[i] = sqrt(max(x, 0)) * r.mx
	}
	return info
}

// splitBelow is the top of the unreduced block ending at hi within
// [lo, hi]: the index after the last negligible entry of qe[lo:hi] (below
// the smallest normal number, set to zero there as at the start), or lo.
func splitBelow[T batchlas.Float](qe []T, lo, hi int) int {
	for l := hi; l > lo; l-- {
		if qe[l-1] < safeMinimum[T]() {
			qe[l-1] = 0
			return l
		}
	}
	return lo
}

// dqdsStep is one dqds transform of the qd array (q, e) with shift tau
// into (nq, ne): the array of B^T B - tau I for B^T B that of (q, e). It
// reports the smallest of its d (dmin) and whether every one was
// nonnegative, the shift then no larger than the smallest eigenvalue; a
// NaN fails it. e[len(q)-1] is not read.
func dqdsStep[T batchlas.Float](q, e, nq, ne []T, tau T) (dmin T, ok bool) {
	d := q[0] - tau
	if !(d >= 0) {
		return 0, false
	}
	return dqdsTail(q, e, nq, ne, tau, 0, d, d)
}

// dqdsTail is dqdsStep's loop from index i on, with d and dmin as the
// loop has them there.
func dqdsTail[T batchlas.Float](q, e, nq, ne []T, tau T, i int, d, dmin T) (T, bool) {
	k := len(q) - 1
	for ; i < k; i++ {
		qh := d + e[i]
		t := q[i+1] / qh
		nq[i] = qh
		ne[i] = e[i] * t
		d = d*t - tau
		if !(d >= 0) {
			return 0, false
		}
		dmin = min(dmin, d)
	}
	nq[k] = d
	return dmin, true
}

// dqdsStep2 is dqdsStep on two arrays at once, the steps of both in one
// loop while both go on: each gets dqdsStep's operations and results.
func dqdsStep2[T batchlas.Float](q1, e1, nq1, ne1 []T, tau1 T, q2, e2, nq2, ne2 []T, tau2 T) (dmin1 T, ok1 bool, dmin2 T, ok2 bool) {
	d1, d2 := q1[0]-tau1, q2[0]-tau2
	if !(d1 >= 0) {
		dmin2, ok2 = dqdsStep(q2, e2, nq2, ne2, tau2)
		return 0, false, dmin2, ok2
	}
	if !(d2 >= 0) {
		dmin1, ok1 = dqdsTail(q1, e1, nq1, ne1, tau1, 0, d1, d1)
		return dmin1, ok1, 0, false
	}
	m1, m2 := d1, d2
	k := min(len(q1), len(q2)) - 1
	for i := range k {
		qh1, qh2 := d1+e1[i], d2+e2[i]
		t1, t2 := q1[i+1]/qh1, q2[i+1]/qh2
		nq1[i], nq2[i] = qh1, qh2
		ne1[i], ne2[i] = e1[i]*t1, e2[i]*t2
		d1, d2 = d1*t1-tau1, d2*t2-tau2
		f1, f2 := !(d1 >= 0), !(d2 >= 0)
		switch {
		case f1 && f2:
			return 0, false, 0, false
		case f1:
			dmin2, ok2 = dqdsTail(q2, e2, nq2, ne2, tau2, i+1, d2, min(m2, d2))
			return 0, false, dmin2, ok2
		case f2:
			dmin1, ok1 = dqdsTail(q1, e1, nq1, ne1, tau1, i+1, d1, min(m1, d1))
			return dmin1, ok1, 0, false
		}
		m1, m2 = min(m1, d1), min(m2, d2)
	}
	dmin1, ok1 = dqdsTail(q1, e1, nq1, ne1, tau1, k, d1, m1)
	dmin2, ok2 = dqdsTail(q2, e2, nq2, ne2, tau2, k, d2, m2)
	return dmin1, ok1, dmin2, ok2
}

// stepResults is dqdsStep4's results, each array's dqdsStep results.
type stepResults[T batchlas.Float] struct {
	dmin [4]T
	ok   [4]bool
}

// dqdsStep4 is dqdsStep on four arrays at once, the steps of all four in
// one loop while all go on; from the first index where one fails, each
// other finishes on its own (dqdsTail). Each gets dqdsStep's operations
// and results.
func dqdsStep4[T batchlas.Float](q, e, nq, ne [4][]T, tau [4]T) (res stepResults[T]) {
	d0, d1, d2, d3 := q[0][0]-tau[0], q[1][0]-tau[1], q[2][0]-tau[2], q[3][0]-tau[3]
	if !(d0 >= 0 && d1 >= 0 && d2 >= 0 && d3 >= 0) {
		for j := range 4 {
			res.dmin[j], res.ok[j] = dqdsStep(q[j], e[j], nq[j], ne[j], tau[j])
		}
		return res
	}
	m0, m1, m2, m3 := d0, d1, d2, d3
	k := min(len(q[0]), len(q[1]), len(q[2]), len(q[3])) - 1
	q0, q1, q2, q3 := q[0][:k+1], q[1][:k+1], q[2][:k+1], q[3][:k+1]
	e0, e1, e2, e3 := e[0][:k], e[1][:k], e[2][:k], e[3][:k]
	p0, p1, p2, p3 := nq[0][:k], nq[1][:k], nq[2][:k], nq[3][:k]
	f0, f1, f2, f3 := ne[0][:k], ne[1][:k], ne[2][:k], ne[3][:k]
	t0, t1, t2, t3 := tau[0], tau[1], tau[2], tau[3]
	for i := range k {
		h0, h1, h2, h3 := d0+e0[i], d1+e1[i], d2+e2[i], d3+e3[i]
		r0, r1, r2, r3 := q0[i+1]/h0, q1[i+1]/h1, q2[i+1]/h2, q3[i+1]/h3
		p0[i], p1[i], p2[i], p3[i] = h0, h1, h2, h3
		f0[i], f1[i], f2[i], f3[i] = e0[i]*r0, e1[i]*r1, e2[i]*r2, e3[i]*r3
		d0, d1, d2, d3 = d0*r0-t0, d1*r1-t1, d2*r2-t2, d3*r3-t3
		if !(d0 >= 0 && d1 >= 0 && d2 >= 0 && d3 >= 0) {
			for j, dm := range [4][2]T{{d0, m0}, {d1, m1}, {d2, m2}, {d3, m3}} {
				if dm[0] >= 0 {
					res.dmin[j], res.ok[j] = dqdsTail(q[j], e[j], nq[j], ne[j], tau[j], i+1, dm[0], min(dm[1], dm[0]))
				}
			}
			return res
		}
		m0, m1, m2, m3 = min(m0, d0), min(m1, d1), min(m2, d2), min(m3, d3)
	}
	for j, dm := range [4][2]T{{d0, m0}, {d1, m1}, {d2, m2}, {d3, m3}} {
		res.dmin[j], res.ok[j] = dqdsTail(q[j], e[j], nq[j], ne[j], tau[j], k, dm[0], dm[1])
	}
	return res
}

// eig2 is the eigenvalues, larger first, of the 2x2 B^T B of the qd array
// (q1, e1, q2): B = [a b; 0 c] with q1 = a^2, e1 = b^2, q2 = c^2, whose
// B^T B has trace q1 + e1 + q2 and determinant q1 q2. The smaller comes
// from the determinant, which keeps its relative accuracy.
func eig2[T batchlas.Float](q1, e1, q2 T) (big, small T) {
	tr := q1 + e1 + q2
	disc := max(tr*tr-4*q1*q2, 0)
	big = (tr + sqrt(disc)) / 2
	if big > 0 {
		small = q1 * q2 / big
	}
	return big, small
}
