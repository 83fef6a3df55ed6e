package simd

//go:generate go run gen.go
//go:generate go run gen_avx2.go

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// The tile: up to MaxRows rows (three 64-byte vectors of float32; float64
// tiles have 24) by Cols columns of C. kb is the depth of Gemm's
// transposed copy of a row block of A^T.
const (
	Cols    = 8
	MaxRows = 48
	kb      = 64
)

// Lanes is the number of elements of T in one 64-byte vector; a tile has
// up to 3*Lanes rows.
func Lanes[T batchlas.Float]() int { return 64 / elemSize[T]() }

func elemSize[T batchlas.Float]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// TileGo is the portable twin of the assembly tile (Tile's contract),
// summing over l in the same order.
func TileGo[T batchlas.Float](k int, a []T, lda int, b []T, bsl int, boff *[Cols]int, c []T, ldc, rows, ncols int, ab *[2]T, hasBeta bool, count, sa, sb, sc int) {
	for i := range count {
		a, b, c := a[i*sa:], b[i*sb:], c[i*sc:]
		for cc := range ncols {
			col := c[cc*ldc:][:rows]
			bc := b[boff[cc]:]
			for r := range col {
				var s T
				for l := range k {
					s += a[l*lda+r] * bc[l*bsl]
				}
				if hasBeta {
					col[r] = ab[0]*s + ab[1]*col[r]
				} else {
					col[r] = ab[0] * s
				}
			}
		}
	}
}

// ColumnsOfB describes columns j0 .. j0+nc-1 of op(B) (B is ldb-strided,
// transposed when transB, n columns in op(B)) for one tile: element
// (l, j0+cc) is at bj[l*bsl+boff[cc]]. Columns past nc repeat the last
// one, so the tile reads nothing outside B.
func ColumnsOfB[T batchlas.Float](transB bool, b []T, ldb, n, j0 int) (bj []T, bsl int, boff [Cols]int, nc int) {
	nc = min(Cols, n-j0)
	bsl, bsc := 1, ldb
	if transB {
		bsl, bsc = ldb, 1
	}
	for cc := range boff {
		boff[cc] = min(cc, nc-1) * bsc
	}
	return b[j0*bsc:], bsl, boff, nc
}

// Gemm computes C = alpha*op(A)*op(B) + beta*C for one m x n matrix C
// (column-major, every operand strided by its ld), k >= 1, with the tile.
// beta == 0 does not read C. With op(A) = A^T each row block is copied
// transposed, kb deep at a time, and later k slices add to C (beta 1).
func Gemm[T batchlas.Float](transA, transB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	tileRows := 3 * Lanes[T]()
	if !transA {
		ab := [2]T{alpha, beta}
		for j0 := 0; j0 < n; j0 += Cols {
			bj, bsl, boff, nc := ColumnsOfB(transB, b, ldb, n, j0)
			for i0 := 0; i0 < m; i0 += tileRows {
				rows := min(tileRows, m-i0)
				Tile(k, a[i0:], lda, bj, bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, beta != 0, 1, 0, 0, 0)
			}
		}
		return
	}
	var buf [kb * MaxRows]T
	for i0 := 0; i0 < m; i0 += tileRows {
		rows := min(tileRows, m-i0)
		for l0 := 0; l0 < k; l0 += kb {
			depth := min(kb, k-l0)
			Transpose(buf[:], rows, a[i0*lda+l0:], lda, rows, depth)
			ab := [2]T{alpha, beta}
			if l0 > 0 {
				ab[1] = 1
			}
			for j0 := 0; j0 < n; j0 += Cols {
				bj, bsl, boff, nc := ColumnsOfB(transB, b, ldb, n, j0)
				Tile(depth, buf[:], rows, bj[l0*bsl:], bsl, &boff, c[j0*ldc+i0:], ldc, rows, nc, &ab, ab[1] != 0, 1, 0, 0, 0)
			}
		}
	}
}
