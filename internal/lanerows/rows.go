package lanerows

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// lanes is the number of T in one 64-byte vector: a row of lanes.
func lanes[T batchlas.Float]() int {
	var z T
	return 64 / int(unsafe.Sizeof(z))
}

// AxpyRows does y[i] += t[i%L]*x[i] for every element of y, L the lanes
// of T (8 float64, 16 float32): each row of lanes of y takes the lanes'
// multipliers t times the same row of x, the product rounded before the
// sum. len(y) must be a multiple of L, x at least as long, t L long.
func AxpyRows[T batchlas.Float](y, x, t []T) {
	L := lanes[T]()
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
	L := lanes[T]()
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
	L := lanes[T]()
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
	L := lanes[T]()
	y = y[:len(x)]
	acc = acc[:L]
	for r := 0; r < len(x); r += L {
		xr, yr := x[r:r+L], y[r:r+L]
		for l := range acc {
			acc[l] += xr[l] * yr[l]
		}
	}
}
