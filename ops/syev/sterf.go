package syev

import "github.com/batchlas-go/batchlas"

// sterf computes the eigenvalues of the symmetric tridiagonal matrix with
// diagonal d[:n] and subdiagonal e[:n-1] by the root-free variant of
// implicit QL/QR (Pal, Walker and Kahan; LAPACK's xSTERF): it works on
// the squares of the subdiagonal and needs no square root per rotation,
// which makes it several times cheaper than steqr when no eigenvectors are
// accumulated. d gets the eigenvalues (unsorted), e is destroyed. It has
// steqr's block splitting, scaling, choice between QL and QR, iteration
// limit and info: 0, or the number of subdiagonal entries not yet zero
// when the limit is reached. A NaN never passes the deflation test.
func sterf[T batchlas.Float](d, e []T, n int) int {
	var st sterfState[T]
	st.start(d, e, n)
	for !st.done && st.next() {
		st.sweep()
	}
	return st.info
}

// sterfMany is sterf on up to maxJoint matrices at once: their sweeps,
// the n^2 part of the work, run interleaved step by step. A sweep is a
// chain of dependent divisions; one matrix's chain leaves the CPU waiting,
// while the chains of different matrices overlap. Every matrix gets
// exactly what sterf gives it. The caller starts each of sts; each ends
// with its info.
func sterfMany[T batchlas.Float](sts []sterfState[T]) {
	// Indexed stores, not append: an append the compiler cannot prove
	// stays within buf sends the states to the heap (every lanestri group
	// allocated them: 466 allocations for 3,700 matrices of order 7).
	var buf [maxJoint]*sterfState[T]
	for {
		k := 0
		for i := range sts {
			if st := &sts[i]; !st.done && st.next() {
				buf[k] = st
				k++
			}
		}
		if k == 0 {
			return
		}
		sweepJoint(buf[:k])
	}
}

// maxJoint is the most matrices sterfMany takes: a group of float32 lanes.
const maxJoint = 16

// sterfState is one matrix's sterf as a resumable state machine: next
// runs the control (splitting, scaling, deflation, shifts: O(n) per sweep)
// up to the next sweep, which sweepJoint carries out.
type sterfState[T batchlas.Float] struct {
	d, e   []T
	n      int
	done   bool
	info   int
	inIter bool // iterating on the block [lsv, lendsv]

	l1, l, lend, lsv, lendsv, jtot, nmaxit, iscale int
	anorm                                          T

	// The sweep set up by next: len steps from e index ie in direction
	// dir (-1 QL, +1 QR), reading d at ie+ad and writing it at ie+wd.
	ie, dir, ad, wd, len  int
	sigma, c, s, gamma, p T
}

// start sets st up for the tridiagonal matrix (d[:n], e[:n-1]).
func (st *sterfState[T]) start(d, e []T, n int) {
	*st = sterfState[T]{d: d[:n], n: n, nmaxit: n * qlIterPerOrder}
	if n > 1 {
		st.e = e[:n-1]
	}
	st.done = n <= 1
}

// next advances st to its next sweep and reports true, or finishes it
// (done, info set) and reports false.
func (st *sterfState[T]) next() bool {
	d, e, n := st.d, st.e, st.n
	eps := epsOf[T]()
	eps2 := eps * eps
	for {
		if !st.inIter {
			if st.l1 > n-1 {
				st.done = true
				return false
			}
			l1 := st.l1
			if l1 > 0 {
				e[l1-1] = 0
			}
			m := l1
			for ; m < n-1; m++ {
				if abs(e[m]) <= sqrt(abs(d[m]))*sqrt(abs(d[m+1]))*eps {
					e[m] = 0
					break
				}
			}
			st.l, st.lend, st.lsv, st.lendsv = l1, m, l1, m
			st.l1 = m + 1
			if m == l1 {
				continue
			}
			st.anorm = maxAbsTri(d[l1:m+1], e[l1:m])
			if st.anorm == 0 {
				continue
			}
			safmin := safminOf[T]()
			ssfmax, ssfmin := sqrt(1/safmin)/3, sqrt(safmin)/eps2
			st.iscale = 0
			if !(st.anorm <= ssfmax) {
				st.iscale = 1
				scaleTri(ssfmax/st.anorm, d[l1:m+1], e[l1:m])
			} else if st.anorm < ssfmin {
				st.iscale = 2
				scaleTri(ssfmin/st.anorm, d[l1:m+1], e[l1:m])
			}
			for i := l1; i < m; i++ {
				e[i] *= e[i]
			}
			if abs(d[m]) < abs(d[l1]) {
				st.l, st.lend = m, l1
			}
			st.inIter = true
		}
		if st.iterate() {
			return true
		}
		// The block is finished, or out of iterations: undo the scaling
		// of its eigenvalues (e holds squares, and only whether its
		// entries are zero matters from here on).
		st.inIter = false
		switch st.iscale {
		case 1:
			scaleTri(st.anorm/(sqrt(1/safminOf[T]())/3), d[st.lsv:st.lendsv+1], nil)
		case 2:
			scaleTri(st.anorm/(sqrt(safminOf[T]())/eps2), d[st.lsv:st.lendsv+1], nil)
		}
		if st.jtot >= st.nmaxit {
			bad := 0
			for _, v := range e {
				if v != 0 {
					bad++
				}
			}
			if bad > 0 {
				st.info, st.done = bad, true
				return false
			}
		}
	}
}

// iterate deflates the current block from its end l as far as it can and
// sets up the next sweep (true), or reports that the block is finished or
// the iterations are spent (false).
func (st *sterfState[T]) iterate() bool {
	d, e := st.d, st.e
	eps := epsOf[T]()
	eps2 := eps * eps
	if st.lend >= st.l {
		// QL: look for a small subdiagonal entry from the top.
		for st.l <= st.lend {
			l, m := st.l, st.l
			for ; m < st.lend; m++ {
				if abs(e[m]) <= eps2*abs(d[m]*d[m+1]) {
					break
				}
			}
			if m < st.lend {
				e[m] = 0
			}
			if m == l {
				st.l++
				continue
			}
			if m == l+1 {
				d[l], d[l+1] = lae2(d[l], sqrt(e[l]), d[l+1])
				e[l] = 0
				st.l += 2
				continue
			}
			if st.jtot == st.nmaxit {
				return false
			}
			st.jtot++
			st.sigma = shiftOf(d[l], d[l+1], sqrt(e[l]))
			st.ie, st.dir, st.ad, st.wd, st.len = m-1, -1, 0, 1, m-l
			st.gamma = d[m] - st.sigma
			return true
		}
		return false
	}
	// QR: look for a small subdiagonal entry from the bottom.
	for st.l >= st.lend {
		l, m := st.l, st.l
		for ; m > st.lend; m-- {
			if abs(e[m-1]) <= eps2*abs(d[m]*d[m-1]) {
				break
			}
		}
		if m > st.lend {
			e[m-1] = 0
		}
		if m == l {
			st.l--
			continue
		}
		if m == l-1 {
			d[l], d[l-1] = lae2(d[l], sqrt(e[l-1]), d[l-1])
			e[l-1] = 0
			st.l -= 2
			continue
		}
		if st.jtot == st.nmaxit {
			return false
		}
		st.jtot++
		st.sigma = shiftOf(d[l], d[l-1], sqrt(e[l-1]))
		st.ie, st.dir, st.ad, st.wd, st.len = m, 1, 1, 0, l-m
		st.gamma = d[m] - st.sigma
		return true
	}
	return false
}

// sweepJoint runs the pending sweep of every state in sts, their steps
// interleaved (step k of each, then step k+1), and closes each sweep: the
// QL (QR) step of LAPACK's xSTERF from e index ie down (up) to the block's
// end l, then e at l (l-1) and d at l.
func sweepJoint[T batchlas.Float](sts []*sterfState[T]) {
	longest := 0
	for _, st := range sts {
		st.c, st.s, st.p = 1, 0, st.gamma*st.gamma
		longest = max(longest, st.len)
	}
	for k := range longest {
		for _, st := range sts {
			if k >= st.len {
				continue
			}
			d, e := st.d, st.e
			i := st.ie
			bb := e[i]
			r := st.p + bb
			if k != 0 {
				e[i-st.dir] = st.s * r
			}
			oldc := st.c
			st.c = st.p / r
			st.s = bb / r
			q := r / st.p
			oldgam := st.gamma
			alpha := d[i+st.ad]
			st.gamma = st.c*(alpha-st.sigma) - st.s*oldgam
			d[i+st.wd] = oldgam + (alpha - st.gamma)
			if st.c != 0 {
				st.p = st.gamma * st.gamma * q
			} else {
				st.p = oldc * bb
			}
			st.ie = i + st.dir
		}
	}
	for _, st := range sts {
		if st.dir < 0 {
			st.e[st.l] = st.s * st.p
		} else {
			st.e[st.l-1] = st.s * st.p
		}
		st.d[st.l] = st.sigma + st.gamma
	}
}

// sweep is sweepJoint on st alone, its state in local variables: in
// sweepJoint it lives in the states, and each step's chain of divisions
// then also waits on the stores and loads of c, s, p and gamma (sterf on
// one matrix of order 512 took 5.96 ms that way, 4.16 this way). The same
// operations in the same order: the same bits.
//
// Both compute the next p = gamma^2/c of LAPACK's step as gamma^2 * (r/p):
// r/p is 1/c, divided beside c and s as soon as r is known, so a step
// waits for one division instead of two (c, then gamma^2/c). sterf ran
// 1.27x faster on one matrix (n = 64 to 1024, float64); the eigenvalues
// differ from LAPACK's formula by roundoff, as much as the formula's
// differ from gonum's Dsterf, with the same number of iterations.
func (st *sterfState[T]) sweep() {
	d, e := st.d, st.e
	i, dir, ad, wd := st.ie, st.dir, st.ad, st.wd
	sigma, gamma := st.sigma, st.gamma
	c, s, p := T(1), T(0), gamma*gamma
	for k := range st.len {
		bb := e[i]
		r := p + bb
		if k != 0 {
			e[i-dir] = s * r
		}
		oldc := c
		c = p / r
		s = bb / r
		q := r / p
		oldgam := gamma
		alpha := d[i+ad]
		gamma = c*(alpha-sigma) - s*oldgam
		d[i+wd] = oldgam + (alpha - gamma)
		if c != 0 {
			p = gamma * gamma * q
		} else {
			p = oldc * bb
		}
		i += dir
	}
	if dir < 0 {
		e[st.l] = s * p
	} else {
		e[st.l-1] = s * p
	}
	d[st.l] = sigma + gamma
	st.ie, st.c, st.s, st.p, st.gamma = i, c, s, p, gamma
}

// shiftOf is the shift of a QL/QR step from the leading 2x2 block
// [p rte; rte q] of the part being iterated on: the eigenvalue of that
// block nearer p.
func shiftOf[T batchlas.Float](p, q, rte T) T {
	sigma := (q - p) / (2 * rte)
	r := hypot(sigma, 1)
	return p - rte/(sigma+sign(r, sigma))
}
