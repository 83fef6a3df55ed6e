package getri

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanerows"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
	"github.com/batchlas-go/batchlas/internal/pivots"
)

// The lanes family: xGETRI across matrices. The batch is cut into groups
// of lanes.Lanes[T]() factors (8 float64, 16 float32), interleaved one per
// lane (lanes.Gather); invertShort's two steps run on the whole group, each
// of its scalar operations an operation on a row of lanes (its column
// updates lanerows.AxpyRows, AVX-512 on x86-64-v4), and the inverses go
// back (lanes.Scatter) before each takes its column interchanges. At small orders a matrix's loops are a few iterations
// long, and the per-matrix code spends more on starting them than on the
// arithmetic; a group's loops are as long as its lanes. The operations
// and their order are invertShort's, so the inverses are the permatrix
// kernel's bit for bit. A factor with a zero or NaN on U's diagonal is
// found in the gathered group (tri.Singular's rule) and left out of the
// scatter.

// lanesMax is the largest order the lanes kernel accepts: a group (n*n
// 64-byte vectors, 256 KiB at 64) stays in a core's L2 on the CPUs met.
// At 64 it still beat permatrix by 1.3x (float64, Intel Xeon); the
// tables decide where it wins.
const lanesMax = 64

// lanesSlot is the lanes kernel's per-worker scratch: the group, L's
// column set aside, and two rows of lanes (a multiplier and -1/u_jj).
func lanesSlot[T batchlas.Float](n int) int {
	return parallel.Pad((lanes.GroupLD(n)*n + n + 2) * lanes.Lanes[T]())
}

// lanesGetri inverts every factor, a group at a time.
func lanesGetri[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	j := parallel.Get[job[T]]()
	defer parallel.Put(j)
	j.kernel, j.a, j.ipiv, j.info = runLanes, a, ipiv, info
	return lanes.RunGroups(ctx, a.Count, flopsPerMatrix(a.Rows), ws, lanesSlot[T](a.Rows), j)
}

// Group inverts the group of factors from first (lanes).
func (j *job[T]) Group(buf []T, first int) {
	a, n := j.a, j.a.Rows
	L, gld := lanes.Lanes[T](), lanes.GroupLD(n)
	count := min(L, a.Count-first)
	g := buf[:n*gld*L]
	rest := buf[n*gld*L:]
	lanes.Gather(g, a.Data[first*a.Stride:], a.Stride, a.LD, n, n, count, gld)
	// tri.Singular's code per lane, read from the group; mask: the lanes
	// with an inverse.
	mask := lanerows.Singular(g, n, gld, count, j.info[first:first+count])
	if mask == 0 {
		return
	}
	lanes.PadIdentity(g, n, gld, count)
	invertLanes(g, n, gld, L, rest[:n*L], rest[n*L:(n+2)*L])
	lanes.Scatter(a.Data[first*a.Stride:], g, a.Stride, a.LD, n, n, mask, gld)
	for l := range count {
		if mask>>l&1 != 0 {
			i := first + l
			swapColumns(n, a.Data[i*a.Stride:], a.LD, pivots.Of(j.ipiv, i, n))
		}
	}
}

// invertLanes is invertShort's steps 1 and 2 on a group g of n x n
// factors (element (r, c) of lane l at g[(c*gld+r)*L+l]): every lane's
// factor becomes its unpermuted inverse inv(U) inv(L). w holds n rows of
// lanes (L's column set aside), t two (a multiplier and -1/u_jj).
func invertLanes[T batchlas.Float](g []T, n, gld, L int, w, t []T) {
	at := func(r, c int) []T {
		o := (c*gld + r) * L
		return g[o : o+L : o+L]
	}
	mul, ajj := t[:L:L], t[L:2*L:2*L]
	// 1. inv(U) in place, a column at a time.
	for j := range n {
		d := at(j, j)
		for l := range d {
			d[l] = 1 / d[l]
			ajj[l] = -d[l]
		}
		colJ := g[j*gld*L:]
		for c := range j {
			copy(mul, at(c, j))
			// Rows 0 .. c-1 of column j take mul times those of column c.
			lanerows.AxpyRows(colJ[:c*L], g[c*gld*L:], mul)
			x, u := at(c, j), at(c, c)
			for l := range x {
				x[l] = mul[l] * u[l]
			}
		}
		for c := range j {
			x := at(c, j)
			for l := range x {
				x[l] *= ajj[l]
			}
		}
	}
	// 2. inv(A)*L = inv(U), from the last column but one.
	for j := n - 2; j >= 0; j-- {
		for i := j + 1; i < n; i++ {
			x := at(i, j)
			copy(w[i*L:(i+1)*L], x)
			clear(x)
		}
		for k := j + 1; k < n; k++ {
			wk := w[k*L : (k+1)*L]
			for l := range mul {
				mul[l] = -wk[l]
			}
			lanerows.AxpyRows(g[j*gld*L:(j*gld+n)*L], g[k*gld*L:], mul)
		}
	}
}
