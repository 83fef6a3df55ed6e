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
