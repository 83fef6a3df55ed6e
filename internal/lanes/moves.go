package lanes

import (
	"math/bits"

	"github.com/batchlas-go/batchlas"
)

// Gather interleaves count <= Lanes[T]() equally spaced rows x cols
// column-major matrices into a group whose columns are gld >= rows
// vectors apart: matrix l starts at src[l*stride] with leading dimension
// ld, and its element (r, c) goes to g[(c*gld+r)*Lanes+l]. The lanes from
// count on are set to zero; the rows between rows and gld are not
// written.
func Gather[T batchlas.Float](g, src []T, stride, ld, rows, cols, count, gld int) {
	L := Lanes[T]()
	if rows == 0 || cols == 0 {
		return
	}
	rows, cols, ld, gld = oneColumn(rows, cols, ld, gld)
	g = g[:((cols-1)*gld+rows)*L]
	if count <= 0 {
		gatherGo(g, src, stride, ld, rows, cols, 0, gld)
		return
	}
	src = src[:(count-1)*stride+(cols-1)*ld+rows]
	if packAsm(g, src, stride, ld, rows, cols, count, gld) {
		return
	}
	gatherGo(g, src, stride, ld, rows, cols, count, gld)
}

// Scatter is Gather's inverse for the lanes set in mask: element (r, c) of
// lane l of the group (g[(c*gld+r)*Lanes+l]) goes to dst[l*stride+c*ld+r];
// the other lanes' matrices are not written.
func Scatter[T batchlas.Float](dst, g []T, stride, ld, rows, cols int, mask uint64, gld int) {
	L := Lanes[T]()
	if rows == 0 || cols == 0 || mask == 0 {
		return
	}
	rows, cols, ld, gld = oneColumn(rows, cols, ld, gld)
	g = g[:((cols-1)*gld+rows)*L]
	top := bits.Len64(mask) - 1 // the highest lane written
	dst = dst[:top*stride+(cols-1)*ld+rows]
	if unpackAsm(dst, g, stride, ld, rows, cols, mask, gld) {
		return
	}
	scatterGo(dst, g, stride, ld, rows, cols, mask, gld)
}

// oneColumn turns a move of rows x cols matrices whose columns are rows
// apart both in memory and in the group (ld = gld = rows: tight matrices
// of odd order, GroupLD's) into the same move of one column of rows*cols
// elements: the moves go a vector's length of rows at a time, column by
// column, so a 3 x 3 matrix moves in two chunks instead of three (the
// inverse of n = 3 took 0.79 ms a batch of 100000 instead of 1.30, Zen 5
// guest).
func oneColumn(rows, cols, ld, gld int) (int, int, int, int) {
	if cols > 1 && ld == rows && gld == rows {
		return rows * cols, 1, rows * cols, rows * cols
	}
	return rows, cols, ld, gld
}

// gatherGo is the assembly pack's twin.
func gatherGo[T batchlas.Float](g, src []T, stride, ld, rows, cols, count, gld int) {
	L := Lanes[T]()
	for l := 0; l < L; l++ {
		for c := 0; c < cols; c++ {
			dst := g[c*gld*L+l:]
			if l >= count {
				for r := 0; r < rows; r++ {
					dst[r*L] = 0
				}
				continue
			}
			col := src[l*stride+c*ld : l*stride+c*ld+rows]
			for r, v := range col {
				dst[r*L] = v
			}
		}
	}
}

// scatterGo is the assembly unpack's twin.
func scatterGo[T batchlas.Float](dst, g []T, stride, ld, rows, cols int, mask uint64, gld int) {
	L := Lanes[T]()
	for l := 0; l < L; l++ {
		if mask&(1<<l) == 0 {
			continue
		}
		for c := 0; c < cols; c++ {
			col := dst[l*stride+c*ld : l*stride+c*ld+rows]
			src := g[c*gld*L+l:]
			for r := range col {
				col[r] = src[r*L]
			}
		}
	}
}
