package lanerows

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanes"
)

// Singular applies tri.Singular's rule to each of the first count lanes of
// a group of n x n triangles (element (r, c) of lane l at
// g[(c*gld+r)*L+l]): info[l] is 0, or j+1 for the first zero or NaN on
// that lane's diagonal at j. It returns the mask of the lanes with info 0.
func Singular[T batchlas.Float](g []T, n, gld, count int, info []int32) (ok uint64) {
	L := lanes.Lanes[T]()
	for l := range count {
		info[l] = 0
		for d := range n {
			if u := g[(d*gld+d)*L+l]; u == 0 || u != u {
				info[l] = int32(d + 1)
				break
			}
		}
		if info[l] == 0 {
			ok |= 1 << l
		}
	}
	return ok
}

// AxpyRows does y[i] += t[i%L]*x[i] for every element of y, L the lanes
// of T (8 float64, 16 float32): each row of lanes of y takes the lanes'
// multipliers t times the same row of x, the product rounded before the
// sum. len(y) must be a multiple of L, x at least as long, t L long.
func AxpyRows[T batchlas.Float](y, x, t []T) {
	L := lanes.Lanes[T]()
	rows := len(y) / L
	if rows == 0 {
		return
	}
	_, _ = x[rows*L-1], t[L-1]
	if axpyRowsAsm(y, x, t, rows) {
		return
	}
	axpyRowsGo(y, x, t)
}

// axpyRowsGo is the assembly's twin.
func axpyRowsGo[T batchlas.Float](y, x, t []T) {
	L := lanes.Lanes[T]()
	x = x[:len(y)]
	t = t[:L]
	for r := 0; r < len(y); r += L {
		yr, xr := y[r:r+L], x[r:r+L]
		for l := range yr {
			yr[l] += t[l] * xr[l]
		}
	}
}

// DotRows does acc[l] += x[i]*y[i] for every element i of x with i%L ==
// l, row after row: each lane's dot product over the rows of lanes, each
// product rounded and then added to acc in row order. len(x) must be a
// multiple of L, y at least as long, acc L long.
func DotRows[T batchlas.Float](acc, x, y []T) {
	L := lanes.Lanes[T]()
	rows := len(x) / L
	if rows == 0 {
		return
	}
	_, _ = y[rows*L-1], acc[L-1]
	if dotRowsAsm(acc, x, y, rows) {
		return
	}
	dotRowsGo(acc, x, y)
}

// dotRowsGo is the assembly's twin.
func dotRowsGo[T batchlas.Float](acc, x, y []T) {
	L := lanes.Lanes[T]()
	y = y[:len(x)]
	acc = acc[:L]
	for r := 0; r < len(x); r += L {
		xr, yr := x[r:r+L], y[r:r+L]
		for l := range acc {
			acc[l] += xr[l] * yr[l]
		}
	}
}
