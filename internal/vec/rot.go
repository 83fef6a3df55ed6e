package vec

//go:generate go run gen.go
//go:generate go run gen_avx2.go

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// RotForward applies the plane rotations (c[j], s[j]), j = 0 up to k-2,
// to the column pairs (j, j+1) of z: rows rows, columns ld elements
// apart, column 0 at z[0]. Rotation j maps the pair (x, y) of entries of
// one row to
//
//	x' = c*x + s*y,  y' = c*y - s*x
//
// (LAPACK's xLASR with side R, pivot V, direct F), each product-sum in one
// fused multiply-add: x' = fma.Of(s, y, c*x), y' = fma.Of(c, y, -(s*x)).
func RotForward[T batchlas.Float](z []T, ld, rows, k int, c, s []T) {
	if k < 2 || rows == 0 {
		return
	}
	_ = z[(k-1)*ld+rows-1]
	c, s = c[:k-1], s[:k-1]
	if rotAsm(true, z, ld, rows, k, c, s) {
		return
	}
	rotForwardGo(z, ld, rows, k, c, s)
}

// RotBackward is RotForward with j = k-2 down to 0 (direct B), its
// products fused as y' = fma.Of(c, y, -(s*x)), x' = fma.Of(s, y, c*x).
func RotBackward[T batchlas.Float](z []T, ld, rows, k int, c, s []T) {
	if k < 2 || rows == 0 {
		return
	}
	_ = z[(k-1)*ld+rows-1]
	c, s = c[:k-1], s[:k-1]
	if rotAsm(false, z, ld, rows, k, c, s) {
		return
	}
	rotBackwardGo(z, ld, rows, k, c, s)
}

// rotForwardGo is the assembly's twin. Column j+1 holds the row's carried
// entry between rotations j and j+1, which the assembly keeps in a
// register; each entry sees the same operations.
func rotForwardGo[T batchlas.Float](z []T, ld, rows, k int, c, s []T) {
	for j := 0; j < k-1; j++ {
		ct, st := c[j], s[j]
		x, y := z[j*ld:j*ld+rows], z[(j+1)*ld:(j+1)*ld+rows]
		for i := range x {
			xi, yi := x[i], y[i]
			x[i] = fma.Of(st, yi, ct*xi)
			y[i] = fma.Of(ct, yi, -(st * xi))
		}
	}
}

// rotBackwardGo is the assembly's twin for RotBackward.
func rotBackwardGo[T batchlas.Float](z []T, ld, rows, k int, c, s []T) {
	for j := k - 2; j >= 0; j-- {
		ct, st := c[j], s[j]
		x, y := z[j*ld:j*ld+rows], z[(j+1)*ld:(j+1)*ld+rows]
		for i := range x {
			xi, yi := x[i], y[i]
			y[i] = fma.Of(ct, yi, -(st * xi))
			x[i] = fma.Of(st, yi, ct*xi)
		}
	}
}
