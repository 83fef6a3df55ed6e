package lanesinv

//go:generate go run gen.go

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/lanerows"
)

// Lower overwrites the lower triangle of every lane's factor L in the
// group g with the lower triangle of inv(L)^T inv(L) (xPOTRI: xTRTI2,
// then xLAUU2, internal/tri's Inverse then TimesTranspose); element
// (r, c) of lane l is at g[(c*gld+r)*L+l]. t holds two rows of lanes.
// The upper triangle is neither read nor written. On x86-64-v4 and v3
// each of the two loops is one call of assembly over the whole group
// (AVX-512 or AVX2, written by gen.go), where lowerGo makes one call per
// column segment; they give the same bits, and lowerGo runs elsewhere
// (purego, other architectures, a device presented below x86-64-v3).
func Lower[T batchlas.Float](g []T, n, gld, L int, t []T) { potri(true, g, n, gld, L, t) }

// potri runs Lower's (lower) or Upper's loops on the group: the assembly
// where it can, the Go loops otherwise.
func potri[T batchlas.Float](lower bool, g []T, n, gld, L int, t []T) {
	if n <= 0 {
		return
	}
	if len(g) < ((n-1)*gld+n)*L {
		panic("lanesinv: the group is shorter than its order")
	}
	switch {
	case potriAsm(lower, g, n, gld, L):
	case lower:
		lowerGo(g, n, gld, L, t)
	default:
		upperGo(g, n, gld, L, t)
	}
}

// lowerGo is Lower's loops in Go, on lanerows, and the assembly's twin.
func lowerGo[T batchlas.Float](g []T, n, gld, L int, t []T) {
	at := func(r, c int) []T {
		o := (c*gld + r) * L
		return g[o : o+L : o+L]
	}
	tcc := t[:L:L]
	// The inverse, from the last column: col[c+1:] := inv(T)[c+1:, c+1:]
	// col[c+1:], then times -1/T[c, c].
	for c := n - 1; c >= 0; c-- {
		d := at(c, c)
		for l := range d {
			d[l] = 1 / d[l]
			tcc[l] = -d[l]
		}
		col := g[c*gld*L:]
		for k := n - 1; k > c; k-- {
			// Rows k+1.. of column c take row k's multipliers, which
			// the update does not write.
			xk, u := at(k, c), at(k, k)
			lanerows.AxpyRows(col[(k+1)*L:n*L], g[(k*gld+k+1)*L:], xk)
			for l := range xk {
				xk[l] *= u[l]
			}
		}
		for k := c + 1; k < n; k++ {
			v := at(k, c)
			for l := range v {
				v[l] *= tcc[l]
			}
		}
	}
	// L^T L's lower triangle, row by row: (i, j) for j <= i is the dot of
	// columns i and j from row i down, which later rows do not change.
	for i := range n {
		ci := g[(i*gld+i)*L : (i*gld+n)*L]
		for j := range i + 1 {
			// (i, j) is the first row the dot product reads of
			// column j: DotRows writes it after reading.
			lanerows.DotRows(at(i, j), ci, g[(j*gld+i)*L:])
		}
	}
}

// Upper is Lower for upper triangles U: the upper triangle of
// inv(U) inv(U)^T; the lower triangle is neither read nor written. Its
// assembly (upperGo's twin) runs where Lower's does.
func Upper[T batchlas.Float](g []T, n, gld, L int, t []T) { potri(false, g, n, gld, L, t) }

// upperGo is Upper's loops in Go, on lanerows, and the assembly's twin.
// The sums of squares round each product first (the conversions keep the
// compiler from fusing them), as the assembly does.
func upperGo[T batchlas.Float](g []T, n, gld, L int, t []T) {
	at := func(r, c int) []T {
		o := (c*gld + r) * L
		return g[o : o+L : o+L]
	}
	tcc, dd := t[:L:L], t[L:2*L:2*L]
	// The inverse, from the first column: col[:c] := inv(T)[:c, :c]
	// col[:c], then times -1/T[c, c].
	for c := range n {
		d := at(c, c)
		for l := range d {
			d[l] = 1 / d[l]
			tcc[l] = -d[l]
		}
		col := g[c*gld*L:]
		for k := range c {
			// Rows ..k-1 of column c take row k's multipliers, which
			// the update does not write.
			xk, u := at(k, c), at(k, k)
			lanerows.AxpyRows(col[:k*L], g[k*gld*L:], xk)
			for l := range xk {
				xk[l] *= u[l]
			}
		}
		for k := range c {
			v := at(k, c)
			for l := range v {
				v[l] *= tcc[l]
			}
		}
	}
	// U U^T's upper triangle, column by column: column i takes U[i, i]
	// times itself and U[i, k] times the columns k right of it, which are
	// not yet overwritten.
	for i := range n {
		ci := g[i*gld*L : i*gld*L+i*L]
		copy(tcc, at(i, i))
		for r := 0; r < len(ci); r += L {
			v := ci[r : r+L]
			for l := range v {
				v[l] *= tcc[l]
			}
		}
		clear(dd)
		for k := i + 1; k < n; k++ {
			xk := at(i, k)
			lanerows.AxpyRows(ci, g[k*gld*L:], xk)
			for l := range dd {
				dd[l] += T(xk[l] * xk[l])
			}
		}
		uii := at(i, i)
		for l := range uii {
			uii[l] = T(tcc[l]*tcc[l]) + dd[l]
		}
	}
}
