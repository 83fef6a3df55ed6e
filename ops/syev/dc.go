package syev

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/vec"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

// dcLeaf is the largest block the divide-and-conquer solver hands to
// QL/QR (steqr) instead of splitting it further. Below about this order
// the rotations cost less than a merge's products. A variable only so that
// the package's tests can make leaves of a few rows, which puts many merges
// (and their deflation cases) on small matrices; nothing else writes it.
var dcLeaf = 32

// dcWork is the scratch dcVectors needs besides its three n x n matrices:
// per merge, the sorted values and z, the kept and deflated values, the
// deflating rotations, the roots' origins and offsets, the recomputed z,
// a copy of a leaf's subdiagonal and steqr's scratch; then applyQLower's
// T.
func dcWork(n int) int { return 12*n + steqrWork(min(n, dcLeaf)) + qBlock*qBlock }

// dcInts is the integer scratch of dcEig: the sort permutation, the kept
// and deflated positions and the rotations' two positions.
func dcInts(n int) int { return 6 * n }

// dcScratch is the divide-and-conquer scratch of one matrix in elements
// of T: dcWork(n), then dcInts(n) int32s (int32sOf) carved from the same
// workspace.
func dcScratch[T batchlas.Float](n int) int { return dcWork(n) + int32Elems[T](dcInts(n)) }

// dcGemm is how phase 3 of a dc chunk of cn matrices shares the workers
// of a call with ctx with the gemm calls nested in it: conc matrices at
// once, the products of each on up to workers workers (conc*workers <=
// parallel.Workers(ctx)), and slot elements of gemm workspace for each of
// them, enough for any product of a matrix of order n (every merge and
// reflector block multiplies operands of at most n x n). One matrix alone
// (a large order) keeps every worker for its products.
func dcGemm[T batchlas.Float](ctx context.Context, n, cn int) (conc, workers, slot int) {
	all := parallel.Workers(ctx)
	conc = max(1, min(cn, all))
	workers = max(1, all/conc)
	slot = gemm.WorkspaceBound[T](ctx, workers, n, n, n)
	return conc, workers, slot
}

// nestedCap is the parallelism cap of nested calls on workers of all
// workers (detached): none (0) when they may use them all.
func nestedCap(workers, all int) int {
	if workers >= all {
		return 0
	}
	return workers
}

// dcEig computes the eigenvalues and eigenvectors of the n x n symmetric
// tridiagonal matrix with diagonal d and subdiagonal e by Cuppen's divide
// and conquer (what LAPACK's xSTEDC does): the matrix is torn in two by a
// rank-one term, each half is solved recursively (QL/QR on blocks of up
// to dcLeaf), and the halves' eigensystems are merged by solving the
// secular equation of the rank-one update. z (leading dimension ldz)
// receives the eigenvectors as columns, d the eigenvalues (unsorted); e is
// destroyed. u and p hold n*n elements each (a merge's eigenvectors and
// the product with the halves'), work dcWork(n), iw dcInts(n). The
// merges' products run through the gemm op under ctx, with gws as their
// workspace (gemm.WorkspaceBound for order n under ctx, or nil to let
// them allocate); ctx is never cancelled (the caller detaches it: a
// matrix once started is finished). It returns steqr's info from a leaf
// that did not converge (1..n), else 0.
func dcEig[T batchlas.Float](ctx context.Context, d, e []T, n int, z []T, ldz int, u, p, work []T, iw []int32, gws []T) (int, error) {
	// The deflation tolerance compares the values with v's entries, which
	// are at most 1: T is scaled to a largest entry near 1 (by a power of
	// two, exact) and the eigenvalues back at the end.
	f := T(1)
	if anrm := maxAbsTri(d[:n], e[:max(n-1, 0)]); anrm > 0 {
		f = pow2Toward(anrm, 1)
		scaleTri(f, d[:n], e[:max(n-1, 0)])
	}
	defer func() {
		for j := range d[:n] {
			d[j] /= f
		}
	}()
	var solve func(o, m int) (int, error)
	solve = func(o, m int) (int, error) {
		if m <= dcLeaf {
			return dcLeafSolve(d[o:o+m], e[o:o+m], m, z[o*ldz+o:], ldz, work), nil
		}
		m1 := m / 2
		// Tear: T = diag(T1 - |beta| e_last e_last^T, T2 - |beta| e_1 e_1^T)
		// + |beta| w w^T with w = e_last + sign(beta) e_first.
		beta := e[o+m1-1]
		d[o+m1-1] -= abs(beta)
		d[o+m1] -= abs(beta)
		if info, err := solve(o, m1); info != 0 || err != nil {
			return info, err
		}
		if info, err := solve(o+m1, m-m1); info != 0 || err != nil {
			return info, err
		}
		return 0, dcMerge(ctx, d[o:o+m], m, m1, beta, z[o*ldz+o:], ldz, u, p, work, iw, gws)
	}
	return solve(0, n)
}

// dcLeafSolve diagonalises one leaf block (order m, diagonal d,
// subdiagonal e[:m-1]) by QL/QR, its eigenvectors into z from the
// identity. The subdiagonal is copied first: steqr destroys it, and e
// past the block is the next tear's.
func dcLeafSolve[T batchlas.Float](d, e []T, m int, z []T, ldz int, work []T) int {
	for c := 0; c < m; c++ {
		col := z[c*ldz : c*ldz+m]
		clear(col)
		col[c] = 1
	}
	ec := work[:m]
	copy(ec[:max(m-1, 0)], e[:max(m-1, 0)])
	return steqr(d, ec, z, ldz, m, work[m:])
}

// dcMerge merges the eigensystems of the two halves of a torn block of
// order m: d[:m1] and z's leading m1 x m1 block are the first half's
// eigenvalues and vectors, d[m1:m] and the trailing block the second's,
// and beta the subdiagonal entry the tear took out. On return d[:m] and
// z's m x m block (now full) are the block's eigensystem.
//
// The block is Q (D + rho v v^T) Q^T with Q = diag(Q1, Q2), D = diag(d),
// v = Q^T w / sqrt(2) (the first half's last row and the second's first,
// signed) and rho = 2|beta|. Its eigenvectors are Q times those of
// D + rho v v^T, which are found in three steps (as LAPACK's xLAED2,
// xLAED3 and xLAED4 do):
//
//   - deflation: a component of v too small to matter leaves its d and
//     unit vector as an eigenpair; two values too close to tell apart are
//     rotated so that one of them has no component in v, and deflates;
//   - the K values left are distinct and their v entries non-negligible:
//     each eigenvalue is the root of the secular equation
//     1/rho + sum v_j^2/(d_j - lambda) between two of them (secularRoot);
//   - v is recomputed from the roots (Gu and Eisenstat's formula, which
//     keeps the vectors orthogonal however close the roots), and the
//     eigenvector of root i is v_j/(d_j - lambda_i), normalised.
//
// The product with Q runs through the gemm op, one product per half
// (Q is block diagonal), into p and back into z.
func dcMerge[T batchlas.Float](ctx context.Context, d []T, m, m1 int, beta T, z []T, ldz int, u, p, work []T, iw []int32, gws []T) error {
	eps := epsOf[T]()
	// Scratch: sorted values and v, kept (K) values and v, deflated
	// values, rotations' c and s, roots' offsets, recomputed v.
	ds, vs := work[:m], work[m:2*m]
	dk, vk := work[2*m:3*m], work[3*m:4*m]
	dd := work[4*m : 5*m]
	rc, rs := work[5*m:6*m], work[6*m:7*m]
	tau, vhat := work[7*m:8*m], work[8*m:9*m]
	perm, kept, defl := iw[:m], iw[m:2*m], iw[2*m:3*m]
	rp, rq, org := iw[3*m:4*m], iw[4*m:5*m], iw[5*m:6*m]

	// v: the first half's last row, the second's first row signed like
	// beta, both over sqrt(2) so that |v| = 1.
	r := 1 / sqrt(T(2))
	sg := T(1)
	if beta < 0 {
		sg = -1
	}
	v := vhat[:m] // vhat is free until the roots are found
	for j := 0; j < m1; j++ {
		v[j] = r * z[j*ldz+m1-1]
	}
	for j := m1; j < m; j++ {
		v[j] = sg * r * z[j*ldz+m1]
	}
	rho := 2 * abs(beta)

	// Sort the values ascending, remembering where each came from.
	for j := range perm {
		perm[j] = int32(j)
	}
	slices.SortStableFunc(perm, func(a, b int32) int { return cmp.Compare(orderKey(d[a]), orderKey(d[b])) })
	var dmax, vmax T
	for j, pj := range perm {
		ds[j], vs[j] = d[pj], v[pj]
		dmax = max(dmax, abs(ds[j]))
		vmax = max(vmax, abs(vs[j]))
	}
	tol := 8 * eps * max(dmax, vmax)

	// Deflation, in ascending order of the values. prev is the last
	// value not deflated yet, still to be compared with the next.
	nk, nd, nr := 0, 0, 0
	deflate := func(j int, val T) { defl[nd], dd[nd] = perm[j], val; nd++ }
	prev := -1
	for j := 0; j < m; j++ {
		// A NaN is not negligible: it goes on into the roots, whose NaN
		// the epilogue reports (info n+2), where deflating it would
		// pass its value off as an eigenvalue.
		if rho*abs(vs[j]) <= tol {
			deflate(j, ds[j])
			continue
		}
		if prev < 0 {
			prev = j
			continue
		}
		// Rotate (prev, j) so that prev's component of v vanishes: the
		// off-diagonal entry this leaves, t*c*s, is negligible when the
		// two values are close.
		s, c := vs[prev], vs[j]
		h := hypot(c, s)
		t := ds[j] - ds[prev]
		c, s = c/h, -s/h
		if abs(t*c*s) <= tol {
			vs[j], vs[prev] = h, 0
			rp[nr], rq[nr], rc[nr], rs[nr] = perm[prev], perm[j], c, s
			nr++
			dp := ds[prev]*c*c + ds[j]*s*s
			ds[j] = ds[prev]*s*s + ds[j]*c*c
			deflate(prev, dp)
			prev = j
			continue
		}
		kept[nk], dk[nk], vk[nk] = perm[prev], ds[prev], vs[prev]
		nk++
		prev = j
	}
	if prev >= 0 {
		kept[nk], dk[nk], vk[nk] = perm[prev], ds[prev], vs[prev]
		nk++
	}

	// u: column i < nk is root i's eigenvector over the kept positions,
	// column nk+t the unit vector of deflated value t.
	clear(u[:m*m])
	if nk == 1 {
		tau[0], org[0] = rho*vk[0]*vk[0], 0
		u[kept[0]] = 1
	} else if nk > 1 {
		// diff (in p, column i): d_j - d_org(i) for root i's origin, then
		// delta_ij = diff - tau_i, the distance of d_j to root i.
		// Each root, each vhat_j and each vector is computed on its own
		// from shared inputs, so the loops split over workers without
		// changing a bit. ctx is never cancelled here: they run to the end.
		rj := parallel.Get[dcRootsJob[T]]()
		*rj = dcRootsJob[T]{dk: dk[:nk], vk: vk[:nk], rho: rho, p: p, tau: tau, vhat: vhat, u: u, org: org, kept: kept, m: m}
		_ = parallel.Run(ctx, nk, float64(nk)*secularFlops, rj)
		// Gu-Eisenstat: the v for which the computed roots are exact,
		// vhat_j^2 = -delta_jj/rho * prod_{i != j} delta_ij/(d_j - d_i).
		rj.phase = dcPhaseVhat
		_ = parallel.Run(ctx, nk, 3*float64(nk), rj)
		rj.phase = dcPhaseVectors
		_ = parallel.Run(ctx, nk, 4*float64(nk), rj)
		parallel.Put(rj)
	}
	for t := 0; t < nd; t++ {
		u[(nk+t)*m+int(defl[t])] = 1
	}
	// The deflating rotations, last first: u = R_1 ... R_nr * u.
	for k := nr - 1; k >= 0; k-- {
		pk, qk, c, s := int(rp[k]), int(rq[k]), rc[k], rs[k]
		for col := 0; col < m; col++ {
			x, y := u[col*m+pk], u[col*m+qk]
			u[col*m+pk] = c*x - s*y
			u[col*m+qk] = s*x + c*y
		}
	}
	// The new values: the roots, then the deflated values.
	for i := 0; i < nk; i++ {
		d[i] = dk[org[i]] + tau[i]
	}
	copy(d[nk:m], dd[:nd])

	// z = diag(Q1, Q2) * u: rows [0, m1) from Q1, rows [m1, m) from Q2.
	m2 := m - m1
	if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1,
		one(z, m1, m1, ldz), one(u, m1, m, m), 0, one(p, m1, m, m), gws); err != nil {
		return err
	}
	if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1,
		one(z[m1*ldz+m1:], m2, m2, ldz), one(u[m1:], m2, m, m), 0, one(p[m1:], m2, m, m), gws); err != nil {
		return err
	}
	for c := 0; c < m; c++ {
		copy(z[c*ldz:c*ldz+m], p[c*m:(c+1)*m])
	}
	return nil
}

// The loops of a merge's secular equation, in order, each a batch loop
// of dcRootsJob over the nk kept values.
const (
	dcPhaseRoots   = iota // the roots, and the distances to them
	dcPhaseVhat           // v recomputed from the roots (Gu-Eisenstat)
	dcPhaseVectors        // the normalised eigenvectors of the roots
)

// dcRootsJob is the state of dcMerge's loops, the Body their workers
// share (a closure would escape to the heap on every merge). dk and vk
// are the nk kept values and v entries; p's column i gets the distances
// of the values to root i, tau and org the roots' offsets and origins,
// vhat the recomputed v, u's first nk columns (m rows, over the kept
// positions) the vectors.
type dcRootsJob[T batchlas.Float] struct {
	phase           int
	dk, vk          []T
	rho             T
	p, tau, vhat, u []T
	org, kept       []int32
	m               int
}

// Chunk runs the current phase on roots (or values) lo..hi-1.
func (r *dcRootsJob[T]) Chunk(_, lo, hi int) {
	nk, p := len(r.dk), r.p
	switch r.phase {
	case dcPhaseRoots:
		for i := lo; i < hi; i++ {
			o, t := secularRoot(r.dk, r.vk, i, r.rho, p[i*nk:(i+1)*nk])
			r.org[i], r.tau[i] = int32(o), t
			del := p[i*nk : (i+1)*nk]
			for j := range del {
				del[j] -= t
			}
		}
	case dcPhaseVhat:
		for j := lo; j < hi; j++ {
			w := -p[j*nk+j] / r.rho
			for i := 0; i < nk; i++ {
				if i != j {
					w *= p[i*nk+j] / (r.dk[j] - r.dk[i])
				}
			}
			r.vhat[j] = T(math.Copysign(float64(sqrt(abs(w))), float64(r.vk[j])))
		}
	default:
		for i := lo; i < hi; i++ {
			col := r.u[i*r.m : (i+1)*r.m]
			del := p[i*nk : (i+1)*nk]
			var ss T
			for j := 0; j < nk; j++ {
				x := r.vhat[j] / del[j]
				col[r.kept[j]] = x
				ss += x * x
			}
			inv := 1 / sqrt(ss)
			for j := 0; j < nk; j++ {
				col[r.kept[j]] *= inv
			}
		}
	}
}

// one is the batch of the single rows x cols matrix at data (leading
// dimension ld), for the gemm op.
func one[T batchlas.Float](data []T, rows, cols, ld int) batchlas.Batch[T] {
	return batchlas.Batch[T]{Data: data[:(cols-1)*ld+rows], Rows: rows, Cols: cols, LD: ld, Stride: ld * cols, Count: 1}
}

// secularMaxIter bounds secularRoot's steps: with a bisection every
// bisectEvery steps the bracket reaches tau's precision well within it
// (a root takes about five steps on the test matrices); the bound only
// keeps a bad case from spinning. Forcing a bisection whenever |f| had
// not halved took half again as many steps: near a pole |f| is no
// measure of the distance to the root.
const (
	secularMaxIter = 400
	bisectEvery    = 8
)

// secularFlops is a rough cost of one root per pole, for parallel.For's
// grain: about five steps of four flops and a division per pole.
const secularFlops = 5 * 8

// secularRoot finds root i of the secular equation
//
//	f(lambda) = 1/rho + sum_j v_j^2/(d_j - lambda) = 0
//
// with d strictly ascending, every v_j nonzero and rho > 0: the root
// lies in (d_i, d_{i+1}), or in (d_K-1, d_K-1 + rho |v|^2) for the last.
// It is returned as an offset tau from the nearer end of its interval,
// d[org], and diff is left holding d_j - d[org] for every j, so that the
// caller gets each distance d_j - lambda as diff_j - tau without the
// cancellation of d_j - lambda computed directly.
//
// f increases on the interval, so its sign at any point tells which side
// the root is on: the iteration keeps a bracket and steps by the root of a
// model with the two nearest poles that matches f and its derivative
// (one pole for the last root), bisecting whenever the step leaves the
// bracket, and every bisectEvery steps. It stops when |f| is within its
// rounding error bound or the bracket is as narrow as tau's precision.
// Every comparison that decides a step is written so that a NaN bisects.
func secularRoot[T batchlas.Float](d, v []T, i int, rho T, diff []T) (org int, tau T) {
	k := len(d)
	eps := epsOf[T]()
	last := i == k-1
	var lo, hi T
	if last {
		var vv T
		for _, x := range v {
			vv += x * x
		}
		org, lo, hi = i, 0, rho*vv
		tau = hi
	} else {
		// The midpoint decides the origin: the root is nearer the pole on
		// whose side of the midpoint f changes sign.
		gap := d[i+1] - d[i]
		mid := gap / 2
		f := 1 / rho
		for j := range d {
			f += v[j] * v[j] / ((d[j] - d[i]) - mid)
		}
		if f >= 0 { // the root is in (d_i, d_i + mid]
			org, lo, hi, tau = i, 0, mid, mid
		} else { // in (d_i + mid, d_i+1)
			org, lo, hi, tau = i+1, -mid, 0, -mid
		}
	}
	for j := range d {
		diff[j] = d[j] - d[org]
	}
	// lo and hi are open ends where they are poles: tau stays strictly
	// between them after the first step.
	for it := 0; it < secularMaxIter; it++ {
		var psi, dpsi, phi, dphi T
		for j := 0; j <= i; j++ {
			q := v[j] / (diff[j] - tau)
			psi += v[j] * q
			dpsi += q * q
		}
		for j := i + 1; j < k; j++ {
			q := v[j] / (diff[j] - tau)
			phi += v[j] * q
			dphi += q * q
		}
		f := 1/rho + psi + phi
		bound := eps * (8*(phi-psi) + 1/rho + abs(tau)*(dpsi+dphi))
		if abs(f) <= bound {
			return org, tau
		}
		switch {
		case f < 0:
			lo = tau
		case f > 0:
			hi = tau
		}
		if !(hi-lo > 2*eps*max(abs(lo), abs(hi))) {
			return org, tau
		}
		// The model: C + A/(da - eta) + B/(db - eta), da and db the
		// distances to the two poles around the root (db absent for the
		// last), A and B matching the derivative of their sides.
		next := tau
		da := diff[i] - tau
		A := da * da * dpsi
		if last {
			C := f - A/da
			next = tau + da + A/C
		} else {
			db := diff[i+1] - tau
			B := db * db * dphi
			C := f - A/da - B/db
			// C eta^2 - b eta + c = 0, the root between da and db.
			b := C*(da+db) + A + B
			c := C*da*db + A*db + B*da
			eta := quadRootBetween(C, b, c, da, db)
			next = tau + eta
		}
		// A model step that leaves the bracket gives way to bisection, and
		// so does every bisectEvery-th step: the bracket then at least
		// halves that often whatever the model does.
		if !(next > lo && next < hi) || it%bisectEvery == bisectEvery-1 {
			next = lo + (hi-lo)/2
		}
		tau = next
	}
	return org, tau
}

// quadRootBetween returns the root of a*x^2 - b*x + c = 0 strictly between
// lo and hi, or NaN when neither root is (the caller then bisects).
// Each root is computed in the form that does not cancel.
func quadRootBetween[T batchlas.Float](a, b, c, lo, hi T) T {
	in := func(x T) bool { return x > lo && x < hi }
	if a == 0 {
		x := c / b
		if in(x) {
			return x
		}
		return T(math.NaN())
	}
	disc := b*b - 4*a*c
	if disc < 0 {
		disc = 0
	}
	sq := sqrt(disc)
	var x1, x2 T
	if b >= 0 {
		x1, x2 = (b+sq)/(2*a), 2*c/(b+sq)
	} else {
		x1, x2 = (b-sq)/(2*a), 2*c/(b-sq)
	}
	switch {
	case in(x2):
		return x2
	case in(x1):
		return x1
	}
	return T(math.NaN())
}

// dcVectors is the divide-and-conquer kernel's eigenvector path after the
// reduction: s (leading dimension lds) holds the reflectors below the
// subdiagonal, d and e the tridiagonal matrix T, tau the reflectors'
// factors. T's eigenvectors go to z (n x n, leading dimension n; dcEig),
// and the reflectors are applied to them there (applyQLower), leaving A's
// eigenvectors. d gets the eigenvalues, unsorted. u and p are dcEig's
// scratch, work dcScratch(n) elements (dcEig's work and integers), gws
// the nested products' workspace; ctx is detached (dcEig). It returns
// dcEig's info.
func dcVectors[T batchlas.Float](ctx context.Context, s []T, lds, n int, d, e, tau, z, u, p, work, gws []T) (int, error) {
	iw := int32sOf(work[dcWork(n):])[:dcInts(n)]
	work = work[:dcWork(n)]
	if f, err := dcEig(ctx, d, e, n, z, n, u, p, work, iw, gws); f != 0 || err != nil {
		return f, err
	}
	return 0, applyQLower(ctx, s, lds, n, tau, z, n, u, p, work[:qBlock*qBlock], gws)
}

// qBlock is the number of reflectors applyQLower applies at once.
const qBlock = 32

// applyQLower overwrites z (n x n, leading dimension ldz) with Q*z, Q the
// product H(0)*H(1)*...*H(n-2) of the reduction's reflectors (stored as
// sytd2Lower and latrdLower leave them in s, leading dimension lds, their
// factors in tau): LAPACK's xORMTR (side L, uplo L, no transpose) in
// blocks, each of up to qBlock reflectors applied as I - V*T*V^T
// (xLARFT, forward, columnwise) by three products on the gemm op, the
// last block first. This does what forming Q (orgtrLower) and one product
// with it would, in 2n^3 flops of products rather than 4n^3/3 of
// reflectors one at a time plus 2n^3. vb and wb hold n*n elements: V
// with its unit diagonal and zeros made explicit, and V^T*z and T*V^T*z;
// tb holds qBlock*qBlock (T). ctx and gws are as for dcEig.
func applyQLower[T batchlas.Float](ctx context.Context, s []T, lds, n int, tau, z []T, ldz int, vb, wb, tb, gws []T) error {
	nref := n - 1
	kmax := max(1, min(qBlock, n/2)) // wb's 2*n*kmax fit in n*n
	for j0 := (nref - 1) / kmax * kmax; j0 >= 0; j0 -= kmax {
		kb := min(kmax, nref-j0)
		r0 := j0 + 1 // reflector j0+c's unit entry is at row r0+c
		rows := n - r0
		for c := 0; c < kb; c++ {
			col := vb[c*rows : (c+1)*rows]
			clear(col[:c])
			col[c] = 1
			copy(col[c+1:], s[(j0+c)*lds+r0+c+1:(j0+c)*lds+n])
		}
		// T: column c is -tau_c T(0:c, 0:c) V(:, 0:c)^T v_c over T(c, c) =
		// tau_c; v_c is zero above its row c.
		for c := 0; c < kb; c++ {
			tc := tau[j0+c]
			tcol := tb[c*kb : (c+1)*kb]
			vc := vb[c*rows+c : (c+1)*rows]
			for i := 0; i < c; i++ {
				tcol[i] = -tc * vec.Dot(vb[i*rows+c:(i+1)*rows], vc)
			}
			for i := 0; i < c; i++ { // tcol = T(0:c, 0:c) * tcol, upper
				var sum T
				for l := i; l < c; l++ {
					sum += tb[l*kb+i] * tcol[l]
				}
				tcol[i] = sum
			}
			tcol[c] = tc
			clear(tcol[c+1:])
		}
		v := one(vb, rows, kb, rows)
		zs := one(z[r0:], rows, n, ldz)
		w1, w2 := one(wb, kb, n, kb), one(wb[kb*n:], kb, n, kb)
		if err := gemm.Gemm(ctx, batchlas.Trans, batchlas.NoTrans, 1, v, zs, 0, w1, gws); err != nil {
			return err
		}
		if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, one(tb, kb, kb, kb), w1, 0, w2, gws); err != nil {
			return err
		}
		if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, -1, v, w2, 1, zs, gws); err != nil {
			return err
		}
	}
	return nil
}
