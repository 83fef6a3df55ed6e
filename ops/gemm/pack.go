package gemm

import "github.com/batchlas-go/batchlas"

// Register tile of the packed micro-kernel: mr rows of C by nr columns.
// Eight accumulators plus two operands and a temporary are what the amd64
// register file (15 usable SSE registers) holds without spilling.
const (
	mr = 4
	nr = 2
)

// packA copies rows [i0, i0+mb) and columns [l0, l0+kb) of op(A) into dst
// as row panels of mr rows: element (i0+mr*p+r, l0+l) goes to
// dst[p*kb*mr + l*mr + r]. Rows past mb in the last panel are zero, so the
// micro-kernel always runs full tiles. a starts at matrix A's first element.
func packA[T batchlas.Float](dst, a []T, lda int, trans bool, i0, mb, l0, kb int) {
	for p := 0; p*mr < mb; p++ {
		panel := dst[p*kb*mr : (p+1)*kb*mr]
		rows := min(mr, mb-p*mr)
		i := i0 + p*mr
		if rows < mr {
			clear(panel)
		}
		for r := range rows {
			if trans {
				// op(A)(i+r, l) = A(l, i+r): a column of A, contiguous in l.
				src := a[(i+r)*lda+l0:][:kb]
				for l, v := range src {
					panel[l*mr+r] = v
				}
			} else {
				off := l0*lda + i + r
				for l := range kb {
					panel[l*mr+r] = a[off]
					off += lda
				}
			}
		}
	}
}

// packAN is packA for op(A) = A with full panels: each k step copies mr
// adjacent elements of one column of A, so A is read once, in column
// order, instead of once per row of the panel.
func packAN[T batchlas.Float](dst, a []T, lda int, i0, mb, l0, kb int) {
	full := mb / mr * mr
	for p := 0; p*mr < full; p++ {
		panel := dst[p*kb*mr : (p+1)*kb*mr]
		off := l0*lda + i0 + p*mr
		for l := range kb {
			src := a[off : off+mr : off+mr]
			d := panel[l*mr : l*mr+mr : l*mr+mr]
			d[0], d[1], d[2], d[3] = src[0], src[1], src[2], src[3]
			off += lda
		}
	}
	if full < mb {
		packA(dst[full*kb:], a, lda, false, i0+full, mb-full, l0, kb)
	}
}

// packB copies rows [l0, l0+kb) and columns [j0, j0+nb) of op(B) into dst
// as column panels of nr columns: element (l0+l, j0+nr*q+c) goes to
// dst[q*kb*nr + l*nr + c]. Columns past nb in the last panel are zero.
func packB[T batchlas.Float](dst, b []T, ldb int, trans bool, l0, kb, j0, nb int) {
	for q := 0; q*nr < nb; q++ {
		panel := dst[q*kb*nr : (q+1)*kb*nr]
		cols := min(nr, nb-q*nr)
		j := j0 + q*nr
		if cols < nr {
			clear(panel)
		}
		for c := range cols {
			if trans {
				// op(B)(l, j+c) = B(j+c, l): a row of B, stride ldb.
				off := l0*ldb + j + c
				for l := range kb {
					panel[l*nr+c] = b[off]
					off += ldb
				}
			} else {
				src := b[(j+c)*ldb+l0:][:kb]
				for l, v := range src {
					panel[l*nr+c] = v
				}
			}
		}
	}
}

// microPacked accumulates the mr x nr tile ap*bp over kb steps, ap and bp
// being one panel each of packA and packB. The panels are walked by
// reslicing, two k steps per iteration to halve the loop overhead. The
// loop tests only len(ap) >= 2, so ap[2:4], ap[4:6] and ap[6:8] keep their
// bounds checks (the panels are whole tiles: they never fail): each check
// ends a basic block, which keeps four products live at a time. In one
// block the compiler computes all the products before summing and spills.
func microPacked[T batchlas.Float](kb int, ap, bp []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	ap, bp = ap[:kb*mr], bp[:kb*nr]
	for len(ap) >= 2 && len(bp) >= 2*nr {
		x, y := bp[0], bp[1]
		c0 += ap[0] * x
		d0 += ap[0] * y
		c1 += ap[1] * x
		d1 += ap[1] * y
		s := ap[2:4:4]
		c2 += s[0] * x
		d2 += s[0] * y
		c3 += s[1] * x
		d3 += s[1] * y
		x, y = bp[2], bp[3]
		s = ap[4:6:6]
		c0 += s[0] * x
		d0 += s[0] * y
		c1 += s[1] * x
		d1 += s[1] * y
		s = ap[6:8:8]
		c2 += s[0] * x
		d2 += s[0] * y
		c3 += s[1] * x
		d3 += s[1] * y
		ap, bp = ap[2*mr:], bp[2*nr:]
	}
	if len(ap) >= mr && len(bp) >= nr { // odd kb: the last step
		x, y := bp[0], bp[1]
		c0 += ap[0] * x
		d0 += ap[0] * y
		c1 += ap[1] * x
		d1 += ap[1] * y
		c2 += ap[2] * x
		d2 += ap[2] * y
		c3 += ap[3] * x
		d3 += ap[3] * y
	}
	return
}

// storeTile writes C = alpha*acc + beta*C for the top-left rows x cols of
// an mr x nr tile at c (c starts at the tile's first element). beta == 0
// does not read C.
func storeTile[T batchlas.Float](c []T, ldc, rows, cols int, alpha, beta T, c0, c1, c2, c3, d0, d1, d2, d3 T) {
	if rows == mr && cols == nr {
		x := c[0:4:4]
		y := c[ldc : ldc+4 : ldc+4]
		if beta == 0 {
			x[0], x[1], x[2], x[3] = alpha*c0, alpha*c1, alpha*c2, alpha*c3
			y[0], y[1], y[2], y[3] = alpha*d0, alpha*d1, alpha*d2, alpha*d3
		} else {
			x[0], x[1], x[2], x[3] = alpha*c0+beta*x[0], alpha*c1+beta*x[1], alpha*c2+beta*x[2], alpha*c3+beta*x[3]
			y[0], y[1], y[2], y[3] = alpha*d0+beta*y[0], alpha*d1+beta*y[1], alpha*d2+beta*y[2], alpha*d3+beta*y[3]
		}
		return
	}
	acc := [nr][mr]T{{c0, c1, c2, c3}, {d0, d1, d2, d3}}
	for j := range cols {
		col := c[j*ldc:][:rows]
		for i := range col {
			if beta == 0 {
				col[i] = alpha * acc[j][i]
			} else {
				col[i] = alpha*acc[j][i] + beta*col[i]
			}
		}
	}
}
