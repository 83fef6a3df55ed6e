package syev

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// lanesTriSyev is the lanestri kernel: the batch is cut into groups of
// lanes.Lanes[T]() matrices interleaved one per vector lane, as lanes
// does, and each group is reduced to tridiagonal form at once
// (lanes.Tridiag: the tridiag kernel's Householder reduction, one vector
// operation advancing every matrix of the group). Then per matrix:
// without vectors, the tridiagonal eigenvalues come from root-free
// implicit QL/QR (sterf, as in tridiag, with its iteration limit and
// info; the group's sweeps interleaved by sterfMany), whose cost is only
// n^2 per matrix against the reduction's n^3; with vectors, the matrix's
// reflectors are copied out of the group, Q is formed from them (orgtr)
// and QL/QR with rotations accumulates into it (steqr), as tridiag does
// after its own reduction. The shared epilogue follows.
// The last group is padded with zero matrices; a matrix that holds a NaN
// or an infinity becomes a zero lane too, and is reported as with every
// kernel.
func lanesTriSyev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	return forGroups(ctx, true, jobz, uplo, a, w, ws, lanesTriSlot[T](ctx, a.Rows, jobz), info)
}

// lanesTriGroup solves the matrices first .. first+L-1 (those that exist)
// as one group in buf (lanesTriSlot elements).
func lanesTriGroup[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], info []int32, first int, buf []T) {
	n, L := a.Rows, lanes.Lanes[T]()
	gld := lanes.GroupLD(n)
	g, buf := buf[:n*gld*L], buf[n*gld*L:]
	gd, buf := buf[:n*L], buf[n*L:]
	ge, buf := buf[:n*L], buf[n*L:]
	gw, buf := buf[:n*L], buf[n*L:]
	sigma, buf := buf[:L], buf[L:]
	de, buf := buf[:2*n*L], buf[2*n*L:]
	count := min(L, a.Count-first)
	// The group as stored (the padding lanes zero), the upper
	// triangle mirrored into the lower one that Tridiag reads; then
	// each lane's check and scaling (load's, without its copy).
	lanes.Gather(g, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	if uplo == batchlas.Upper {
		for c := 0; c < n; c++ {
			for r := c + 1; r < n; r++ {
				copy(g[(c*gld+r)*L:(c*gld+r+1)*L], g[(r*gld+c)*L:(r*gld+c+1)*L])
			}
		}
	}
	var bad uint64 // the lanes whose matrix holds a NaN or an infinity
	for l := range count {
		i := first + l
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		s, ok := scan(uplo, m, a.LD, n)
		if !ok {
			info[i] = nanInfo(n)
			bad |= 1 << l
		}
		if sigma[l] = s; s != 1 {
			for c := 0; c < n; c++ {
				for r := c; r < n; r++ {
					if ok {
						g[(c*gld+r)*L+l] *= s
					} else {
						g[(c*gld+r)*L+l] = 0
					}
				}
			}
		}
	}
	lanes.Tridiag(g, n, gld, gd, ge, gw)
	// Each lane's tridiagonal matrix.
	for l := range count {
		d, e := de[2*n*l:2*n*l+n], de[2*n*l+n:2*n*(l+1)]
		for j := range n {
			d[j] = gd[j*L+l]
		}
		for j := range n - 1 {
			e[j] = ge[j*L+l]
		}
	}
	if jobz == WithVectors {
		// The lanes' Q and rotations, most of the work, spread over
		// the workers the group loop leaves idle (one group alone
		// would otherwise run on one core), each with its slot of
		// buf. The group completes even if ctx is cancelled
		// meanwhile: the batch loop reports whole groups.
		slot := lanesTriLaneSlot(n)
		lj := parallel.Get[laneJob[T]]()
		*lj = laneJob[T]{a: a, w: w, info: info, g: g, gld: gld, de: de, sigma: sigma, buf: buf, slot: slot, first: first, bad: bad}
		lj.ctx.set(ctx, 0)
		_ = parallel.RunScratch(&lj.ctx, count, flopsPerMatrix(n, jobz), len(buf)/slot, lj)
		parallel.Put(lj)
		return
	}
	// All of the group's tridiagonal matrices through sterf at once.
	var sts [maxJoint]sterfState[T]
	for l := range count {
		sts[l].start(de[2*n*l:2*n*l+n], de[2*n*l+n:2*n*(l+1)], n)
		sts[l].done = sts[l].done || bad&(1<<l) != 0
	}
	sterfMany(sts[:count])
	for l := range count {
		i := first + l
		if bad&(1<<l) != 0 {
			continue
		}
		if f := sts[l].info; f != 0 {
			info[i] = int32(f)
			continue
		}
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		info[i] = finish(de[2*n*l:2*n*l+n], nil, n, n, sigma[l], w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
	}
}

// laneJob is the loop over a lanestri group's lanes with vectors, the
// Body the workers share: each lane's reflectors copied out of the
// reduced group g, Q formed from them, QL/QR with rotations into it and
// the shared epilogue, in worker wk's lane slot of buf.
type laneJob[T batchlas.Float] struct {
	ctx          detached // the lanes' context: the group completes
	a            batchlas.Batch[T]
	w            batchlas.Vectors[T]
	info         []int32
	g, de, sigma []T
	buf          []T
	gld, slot    int
	first        int
	bad          uint64
}

// Chunk solves lanes lo..hi-1 of the group.
func (j *laneJob[T]) Chunk(wk, lo, hi int) {
	a, w, n := j.a, j.w, j.a.Rows
	lb := j.buf[wk*j.slot : (wk+1)*j.slot]
	q, tau, work := lb[:n*n], lb[n*n:n*n+n], lb[n*n+n:n*n+n+steqrWork(n)]
	for l := lo; l < hi; l++ {
		i := j.first + l
		if j.bad&(1<<l) != 0 {
			continue
		}
		d, e := j.de[2*n*l:2*n*l+n], j.de[2*n*l+n:2*n*(l+1)]
		reflectorsOf(j.g, n, j.gld, l, q, tau)
		orgtrLower(q, n, n, tau)
		if f := steqr(d, e, q, n, n, work); f != 0 {
			j.info[i] = int32(f)
			continue
		}
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		j.info[i] = finish(d, q, n, n, j.sigma[l], w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
	}
}

// reflectorsOf copies lane l's reflectors out of the reduced group g into
// q (n x n, leading dimension n, where sytd2Lower leaves them: reflector i
// below the subdiagonal of column i) and sets their factors in tau.
// lanes.Tridiag does not keep the factors; each is recomputed from its
// reflector v = [1, v2] as tau = 2/(1 + v2^T*v2), the factor that makes
// I - tau*v*v^T orthogonal, which is what the reduction's
// (beta - alpha)/beta equals in exact arithmetic; tau is 0 where the
// reduction left the column alone (v2 with no nonzero square, the only
// case in which the reduction's factor is 0).
func reflectorsOf[T batchlas.Float](g []T, n, gld, l int, q, tau []T) {
	L := lanes.Lanes[T]()
	for i := 0; i < n-1; i++ {
		var ss float64
		for r := i + 2; r < n; r++ {
			x := g[(i*gld+r)*L+l]
			q[i*n+r] = x
			ss += float64(x) * float64(x)
		}
		tau[i] = 0
		if ss != 0 {
			tau[i] = T(2 / (1 + ss))
		}
	}
	tau[max(n-1, 0)] = 0
}

// lanesTriSlot is the lanestri kernel's per-worker scratch for a call
// with ctx: the group, its diagonal, subdiagonal and lanes.Tridiag's
// scratch (n vectors each), the group's scale factors, each matrix's
// diagonal and subdiagonal, and with vectors a lane slot for each worker
// that may help with the group's lanes.
func lanesTriSlot[T batchlas.Float](ctx context.Context, n int, jobz Job) int {
	L := lanes.Lanes[T]()
	s := (lanes.GroupLD(n)+5)*n*L + L
	if jobz == WithVectors {
		s += parallel.Workers(ctx) * lanesTriLaneSlot(n)
	}
	return parallel.Pad(s)
}

// lanesTriLaneSlot is one lane's scratch with vectors: its Q, reflector
// factors and rotations.
func lanesTriLaneSlot(n int) int { return n*n + n + steqrWork(n) }
