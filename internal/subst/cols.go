package subst

//go:generate go run gen.go

import (
	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
)

// SolveCols overwrites C (t x ncols, column-major with leading dimension
// ldc) with E^-1 * alpha*C. E's entries off its diagonal blocks are read
// from e as E[i,k] = e[i+k*lde] (A itself for E = A, PackE's copy
// otherwise); its diagonal blocks from dg, packed by PackDiag with the same
// back.
//
// Block by block (a vector of rows, see blockAt), columns go through in
// chunks of 8, then 4, 2 and 1. Each column of a chunk sums its products
// with the coupled rows in na accumulator vectors (coupled row kk into
// accumulator kk%na; na is 2 for a chunk of 8 columns and 4 for smaller
// ones, so at least 8 fused multiply-adds are in flight), the first
// starting at alpha*C. They are added as acc0+acc1, or
// (acc0+acc1)+(acc2+acc3). Then each step of the block's own triangle
// takes the lane li it solves and subtracts it, times lane li's vector of
// the pack (already scaled by the reciprocal diagonal), from the lanes
// solved after it (only those: an Inf in one lane does not turn the
// others' products with a 0 into NaN); last, every lane is multiplied by
// its reciprocal diagonal and stored. A triangle with a subnormal diagonal
// entry is solved by division instead (see tiny.go).
func SolveCols[T batchlas.Float](e []T, lde int, dg []T, t int, back bool, c []T, ldc, ncols int, alpha T) {
	if t == 0 || ncols == 0 {
		return
	}
	_ = c[(ncols-1)*ldc+t-1]
	_ = e[(t-1)*lde+t-1]
	if hasTinyDiagonal(e, lde, dg, t, back) {
		solveColsDiv(e, lde, t, back, c, ldc, ncols, alpha)
		return
	}
	w := width[T]()
	for p := 0; p*w < t; p++ {
		b := blockAt(p, t, w, back)
		n := (w + 1) * w
		v := dg[p*n : (p+1)*n : (p+1)*n]
		cpl := e // read only when the block has coupled rows
		if b.ne > 0 {
			cpl = e[b.row0+b.klo*lde:]
		}
		if !colsAsm(cpl, lde, v, b, back, c, ldc, ncols, alpha) {
			colsGo(cpl, lde, v, b, back, c, ldc, ncols, alpha)
		}
	}
}

// chunk is the number of columns of the next chunk of SolveCols, and the
// number of accumulators per column it uses.
func chunk(left int) (cols, na int) {
	switch {
	case left >= 8:
		return 8, 2
	case left >= 4:
		return 4, 4
	case left >= 2:
		return 2, 4
	}
	return 1, 4
}

// colsGo is the assembly's twin for one block: coupled row klo+kk's
// vector is cpl[kk*lde:], v the block's diagonal pack.
func colsGo[T batchlas.Float](cpl []T, lde int, v []T, b block, back bool, c []T, ldc, ncols int, alpha T) {
	w := width[T]()
	d := v[:w]
	for j := 0; j < ncols; {
		cols, na := chunk(ncols - j)
		for range cols {
			col := c[j*ldc:]
			var acc [4][16]T
			for l := range b.cnt {
				acc[0][l] = alpha * col[b.row0+l]
			}
			for kk := range b.ne {
				x := col[b.klo+kk]
				e := cpl[kk*lde : kk*lde+b.cnt]
				a := &acc[kk%na]
				for l, el := range e {
					a[l] = fma.Of(-el, x, a[l])
				}
			}
			s := acc[0]
			for l := range b.cnt {
				if na == 2 {
					s[l] = acc[0][l] + acc[1][l]
				} else {
					s[l] = (acc[0][l] + acc[1][l]) + (acc[2][l] + acc[3][l])
				}
			}
			for st := range b.cnt {
				li := lane(st, b.cnt, back)
				x := s[li]
				e := v[(li+1)*w:]
				for l := range b.cnt {
					if after(l, li, back) {
						s[l] = fma.Of(-e[l], x, s[l])
					}
				}
			}
			for l := range b.cnt {
				col[b.row0+l] = s[l] * d[l]
			}
			j++
		}
	}
}
