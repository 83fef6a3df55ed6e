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
	if n <= 0 {
		return 0
	}
	d = d[:n]
	if n == 1 {
		d[0] = abs(d[0])
		return 0
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
		return 0
	}
	// The squares of B's entries scaled to at most 1: nothing overflows,
	// and what underflows is below eps^2 of the largest value squared.
	q, qe := work[:n], work[n:2*n]
	p, pe := work[2*n:3*n], work[3*n:4*n]
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

	tol := 100 * epsilon[T]()
	tol2 := tol * tol
	iters, maxIters := 0, dqdsIterPerValue*n
	hi, lo := n-1, n // lo > hi: no block started
	var sigma, dmin T
	margin, marginAt := T(1), -1
	for hi >= 0 {
		if hi < lo {
			// A new block ends at hi: the shift stored for it, and its top.
			// (dmin belongs to the last bottom entry, marginAt, which is
			// not hi: it is not read for this block's first shift.)
			sigma = d[hi]
			lo = splitBelow(qe, 0, hi)
		} else if l := splitBelow(qe, lo, hi); l > lo {
			// An entry of the block became zero: the part above it keeps
			// the shift it has now.
			d[l-1] = sigma
			lo = l
		}
		if lo == hi {
			d[hi] = q[hi] + sigma
			hi--
			continue
		}
		if qe[hi-1] <= tol2*(sigma+q[hi]) {
			d[hi] = q[hi] + sigma
			hi--
			continue
		}
		if hi-1 == lo || qe[hi-2] <= tol2*(sigma+q[hi-1]) {
			// The trailing 2x2 of B^T B - sigma stands alone.
			big, small := eig2(q[hi-1], qe[hi-1], q[hi])
			d[hi-1], d[hi] = big+sigma, small+sigma
			hi -= 2
			continue
		}
		if iters >= maxIters {
			break
		}
		// The shift: the smaller eigenvalue of the trailing 2x2, capped by
		// dmin (both bound the smallest eigenvalue from above), less a
		// margin that shrinks by 8 with every accepted shift on this bottom
		// entry and grows by 8 with every rejected one, down to no shift.
		_, est := eig2(q[hi-1], qe[hi-1], q[hi])
		if dmin > 0 && hi == marginAt {
			est = min(est, dmin)
		}
		if hi != marginAt {
			margin, marginAt = 1.0/8, hi
		}
		for {
			tau := est * (1 - margin)
			if margin >= 1 {
				tau = 0
			}
			iters++
			nd, ok := dqdsStep(q[lo:hi+1], qe[lo:hi+1], p[lo:hi+1], pe[lo:hi+1], tau)
			if ok {
				copy(q[lo:hi+1], p[lo:hi+1])
				copy(qe[lo:hi], pe[lo:hi])
				sigma += tau
				dmin = nd
				margin = max(margin/8, 4*tol)
				break
			}
			if tau == 0 || iters >= maxIters {
				// A zero shift fails only on NaN, which finite input cannot
				// produce; stop with what has converged.
				iters = maxIters
				break
			}
			margin = min(margin*8, 1)
		}
	}
	info := 0
	if hi >= 0 {
		for i := range hi {
			if qe[i] != 0 {
				info++
			}
		}
		for i := 0; i <= hi; i++ {
			d[i] = q[i] // an estimate of the square, unshifted
		}
	}
	for i, x := range d {
		d[i] = sqrt(max(x, 0)) * mx
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
	k := len(q) - 1
	d := q[0] - tau
	if !(d >= 0) {
		return 0, false
	}
	dmin = d
	for i := range k {
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
