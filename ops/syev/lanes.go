package syev

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// lanesSyev is the lanes kernel: cyclic Jacobi across matrices. The batch
// is cut into groups of lanes.Lanes[T]() matrices (8 float64, 16
// float32); each group is loaded, one lane per matrix, into the
// interleaved layout of package lanes, where one vector operation advances
// every matrix of the group by the same step (lanes.Jacobi: the jacobi
// kernel's negligibility test and rotation formulas and the same sweep
// limit, with the pairs of a sweep in round-robin order, so that a step's
// disjoint rotations are computed together),
// and written back per matrix through the shared epilogue. The last group
// is padded with zero matrices, which need no rotation. A matrix that
// holds a NaN or an infinity becomes a zero lane too, and is reported as
// with every kernel.
func lanesSyev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	return forGroups(ctx, false, jobz, uplo, a, w, ws, lanesSlot[T](a.Rows, jobz), info)
}

// lanesSlot is the lanes kernel's per-worker scratch: the group and, for
// vectors, its rotations (n*n*L each), one matrix's full copy, eigenvalues
// and vectors, the group's scale factors and lanes.Jacobi's scratch.
func lanesSlot[T batchlas.Float](n int, jobz Job) int {
	L := lanes.Lanes[T]()
	gn := n * lanes.GroupLD(n) * L
	s := gn + n*n + n + L + lanes.JacobiWork[T](n)
	if jobz == WithVectors {
		s += gn + n*n
	}
	return parallel.Pad(s)
}

// lanesGroup solves the matrices first .. first+L-1 (those that exist)
// as one interleaved group in buf (lanesSlot elements).
func lanesGroup[T batchlas.Float](jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], info []int32, first int, buf []T) {
	n, L := a.Rows, lanes.Lanes[T]()
	gld := lanes.GroupLD(n)
	gn := n * gld * L
	g, buf := buf[:gn], buf[gn:]
	s, buf := buf[:n*n], buf[n*n:]
	d, buf := buf[:n], buf[n:]
	sigma, buf := buf[:L], buf[L:]
	work, buf := buf[:lanes.JacobiWork[T](n)], buf[lanes.JacobiWork[T](n):]
	// at is the place of lane l's entry (r, c) in a group.
	at := func(r, c, l int) int { return (c*gld+r)*L + l }
	var v, z []T
	if jobz == WithVectors {
		v, z = buf[:gn], buf[gn:gn+n*n]
		clear(v)
		for j := 0; j < n; j++ {
			for l := range L {
				v[at(j, j, l)] = 1
			}
		}
	}
	count := min(L, a.Count-first)
	var bad uint64 // the lanes whose matrix holds a NaN or an infinity
	for l := range L {
		if l >= count {
			for c := 0; c < n; c++ {
				for r := 0; r < n; r++ {
					g[at(r, c, l)] = 0
				}
			}
			continue
		}
		i := first + l
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		var ok bool
		// load zeroes the lane when the triangle holds a NaN or an
		// infinity.
		if sigma[l], ok = load(uplo, m, a.LD, n, g[l:], gld, L); !ok {
			info[i] = nanInfo(n)
			bad |= 1 << l
		}
	}
	rotated, made := lanes.Jacobi(g, v, n, gld, jacobiSweeps, epsOf[T](), safminOf[T](), work)
	for l := range count {
		i := first + l
		if bad&(1<<l) != 0 {
			continue
		}
		if made == jacobiSweeps && rotated&(1<<l) != 0 {
			// lanes.Jacobi keeps the upper triangle.
			for c := 0; c < n; c++ {
				for r := 0; r < n; r++ {
					s[c*n+r] = g[at(min(r, c), max(r, c), l)]
				}
			}
			info[i] = int32(offColumns(s, n))
			continue
		}
		for j := range d {
			d[j] = g[at(j, j, l)]
		}
		if z != nil {
			for c := 0; c < n; c++ {
				for r := 0; r < n; r++ {
					z[c*n+r] = v[at(r, c, l)]
				}
			}
		}
		m := a.Data[i*a.Stride : i*a.Stride+(n-1)*a.LD+n]
		info[i] = finish(d, z, n, n, sigma[l], w.Data[i*w.Stride:i*w.Stride+n], m, a.LD)
	}
}
