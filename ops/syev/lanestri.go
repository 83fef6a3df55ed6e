package syev

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// lanesTriSyev is the lanestri kernel, for eigenvalues only: the batch is
// cut into groups of lanes.Lanes[T]() matrices interleaved one per vector
// lane, as lanes does, and each group is reduced to tridiagonal form at
// once (lanes.Tridiag: the tridiag kernel's Householder reduction, one
// vector operation advancing every matrix of the group). Each matrix's
// tridiagonal eigenvalues then come from root-free implicit QL/QR (sterf,
// as in tridiag without vectors, with its iteration limit and info),
// whose cost is only n^2 per matrix against the reduction's n^3, and the
// shared epilogue.
// The last group is padded with zero matrices; a matrix that holds a NaN
// or an infinity becomes a zero lane too, and is reported as with every
// kernel.
func lanesTriSyev[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	n, L := a.Rows, lanes.Lanes[T]()
	gld := lanes.GroupLD(n)
	return lanes.ForGroups(ctx, a.Count, flopsPerMatrix(n, ValuesOnly), ws, lanesTriSlot[T](n), func(buf []T, first int) {
		g, buf := buf[:n*gld*L], buf[n*gld*L:]
		gd, buf := buf[:n*L], buf[n*L:]
		ge, buf := buf[:n*L], buf[n*L:]
		gw, buf := buf[:n*L], buf[n*L:]
		sigma, buf := buf[:L], buf[L:]
		de := buf[:2*n*L]
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
		// Each lane's tridiagonal matrix, all of them through sterf at
		// once.
		var sts [maxJoint]sterfState[T]
		for l := range count {
			d, e := de[2*n*l:2*n*l+n], de[2*n*l+n:2*n*(l+1)]
			for j := range n {
				d[j] = gd[j*L+l]
			}
			for j := range n - 1 {
				e[j] = ge[j*L+l]
			}
			sts[l].start(d, e, n)
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
			finish(de[2*n*l:2*n*l+n], nil, n, sigma[l], w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
		}
	})
}

// lanesTriSlot is the lanestri kernel's per-worker scratch: the group, its
// diagonal, subdiagonal and lanes.Tridiag's scratch (n vectors each), the
// group's scale factors, and each matrix's diagonal and subdiagonal.
func lanesTriSlot[T batchlas.Float](n int) int {
	L := lanes.Lanes[T]()
	return parallel.Pad((lanes.GroupLD(n)+5)*n*L + L)
}
