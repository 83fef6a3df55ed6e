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

// DotRows sets dst[l] to the sum of x[i]*y[i] over the elements i of x
// with i%L == l: each lane's dot product over the rows of lanes, each
// product rounded and then added. The rows are summed in four
// interleaved partial sums from zero (row r into sum r%4), combined as
// (s0+s1)+(s2+s3): four chains of additions instead of one, so a dot
// product over many rows is not bound by the adder's latency. dst is
// written after every row is read, so it may be one of the rows of x or
// y. len(x) must be a multiple of L, y at least as long, dst L long.
func DotRows[T batchlas.Float](dst, x, y []T) {
	L := lanes.Lanes[T]()
	rows := len(x) / L
	_ = dst[L-1]
	if rows == 0 {
		clear(dst[:L])
		return
	}
	_ = y[rows*L-1]
	if dotRowsAsm(dst, x, y, rows) {
		return
	}
	dotRowsGo(dst, x, y)
}

// dotRowsGo is the assembly's twin: the same partial sums, rounded the
// same way, combined in the same order.
func dotRowsGo[T batchlas.Float](dst, x, y []T) {
	L := lanes.Lanes[T]()
	y = y[:len(x)]
	dst = dst[:L]
	var s [4][16]T // L <= 16
	for r := 0; r*L < len(x); r++ {
		xr, yr, sr := x[r*L:(r+1)*L], y[r*L:(r+1)*L], s[r%4][:L]
		for l := range sr {
			sr[l] += xr[l] * yr[l]
		}
	}
	for l := range dst {
		dst[l] = (s[0][l] + s[1][l]) + (s[2][l] + s[3][l])
	}
}
