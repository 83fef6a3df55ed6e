package simd

import "github.com/batchlas-go/batchlas"

// TriBlock is the order of the diagonal blocks TriSolve substitutes in Go;
// everything off those blocks is a product on the tile. Orders below
// 2*TriBlock have no off-diagonal block worth the tile and are better
// served by plain substitution (callers check TriWorth).
const TriBlock = 16

// TriWorth reports whether TriSolve pays off for an order-n triangle: it
// has at least one off-diagonal block.
func TriWorth(n int) bool { return n >= 2*TriBlock }

// TriSolve overwrites the n x nrhs matrix b (leading dimension ldb) with
// op(A)^-1 * b, A the n x n upper or lower triangle of a (leading
// dimension lda; the other triangle is not read), op(A) = A^T when trans,
// with a unit diagonal (not read) when unit. Blocked: each TriBlock-order
// diagonal block is solved by substitution in Go, then the rest of b is
// updated by the block's off-diagonal panel on the tile (Gemm), so most of
// the work runs on vectors. Diagonal entries are divided by, as LAPACK's
// trsm does.
func TriSolve[T batchlas.Float](upper, trans, unit bool, n int, a []T, lda int, b []T, ldb, nrhs int) {
	if n == 0 || nrhs == 0 {
		return
	}
	// op(A) is lower (forward substitution) for a lower A or a transposed
	// upper one.
	if upper == trans {
		for k0 := 0; k0 < n; k0 += TriBlock {
			kb := min(TriBlock, n-k0)
			triDiag(trans, unit, false, k0, kb, a, lda, b, ldb, nrhs)
			if rest := k0 + kb; rest < n {
				// b[rest:n] -= op(A)[rest:n, k0:rest] * b[k0:rest].
				if trans {
					Gemm(true, false, n-rest, nrhs, kb, -1, a[rest*lda+k0:], lda, b[k0:], ldb, 1, b[rest:], ldb)
				} else {
					Gemm(false, false, n-rest, nrhs, kb, -1, a[k0*lda+rest:], lda, b[k0:], ldb, 1, b[rest:], ldb)
				}
			}
		}
		return
	}
	for k1 := n; k1 > 0; k1 -= TriBlock {
		k0 := max(0, k1-TriBlock)
		triDiag(trans, unit, true, k0, k1-k0, a, lda, b, ldb, nrhs)
		if k0 > 0 {
			// b[0:k0] -= op(A)[0:k0, k0:k1] * b[k0:k1].
			if trans {
				Gemm(true, false, k0, nrhs, k1-k0, -1, a[k0:], lda, b[k0:], ldb, 1, b, ldb)
			} else {
				Gemm(false, false, k0, nrhs, k1-k0, -1, a[k0*lda:], lda, b[k0:], ldb, 1, b, ldb)
			}
		}
	}
}

// triDiag solves the diagonal block [k0, k0+kb) of op(A) against those rows
// of every column of b, by substitution: backward when the block is upper
// in op(A), forward otherwise. Without trans it sweeps each solved x(j)
// down (or up) the contiguous column j of A (axpy); with trans, x(i) is a
// dot product of column i of A with the solved part.
func triDiag[T batchlas.Float](trans, unit, backward bool, k0, kb int, a []T, lda int, b []T, ldb, nrhs int) {
	blk := a[k0*lda+k0:]
	for c := range nrhs {
		x := b[c*ldb+k0:][:kb]
		switch {
		case !trans && !backward:
			for j := range kb {
				col := blk[j*lda:][:kb]
				if !unit {
					x[j] /= col[j]
				}
				xj := x[j]
				for i := j + 1; i < kb; i++ {
					x[i] -= col[i] * xj
				}
			}
		case !trans && backward:
			for j := kb - 1; j >= 0; j-- {
				col := blk[j*lda:][:kb]
				if !unit {
					x[j] /= col[j]
				}
				xj := x[j]
				for i := range j {
					x[i] -= col[i] * xj
				}
			}
		case trans && !backward:
			// op(A) = A^T lower: A upper, column i holds op(A)(i, 0:i).
			for i := range kb {
				col := blk[i*lda:][:kb]
				s := x[i]
				for j := range i {
					s -= col[j] * x[j]
				}
				if !unit {
					s /= col[i]
				}
				x[i] = s
			}
		default:
			// op(A) = A^T upper: A lower, column i holds op(A)(i, i+1:).
			for i := kb - 1; i >= 0; i-- {
				col := blk[i*lda:][:kb]
				s := x[i]
				for j := i + 1; j < kb; j++ {
					s -= col[j] * x[j]
				}
				if !unit {
					s /= col[i]
				}
				x[i] = s
			}
		}
	}
}

// TriSolveRight overwrites the m x n matrix b (leading dimension ldb) with
// b * op(A)^-1, A the n x n upper or lower triangle of a as in TriSolve.
// Left-looking by blocks of TriBlock columns of b: each block first loses
// the product of the columns already solved with op(A)'s panel above (or
// below) its diagonal block, on the tile, then is solved against that
// diagonal block row by row in Go.
func TriSolveRight[T batchlas.Float](upper, trans, unit bool, m, n int, a []T, lda int, b []T, ldb int) {
	if m == 0 || n == 0 {
		return
	}
	// op(A) is upper for an upper A or a transposed lower one: the
	// columns of X are solved first to last.
	if upper != trans {
		for k0 := 0; k0 < n; k0 += TriBlock {
			k1 := min(k0+TriBlock, n)
			if k0 > 0 {
				// b[:, k0:k1] -= b[:, 0:k0] * op(A)[0:k0, k0:k1].
				if trans {
					Gemm(false, true, m, k1-k0, k0, -1, b, ldb, a[k0:], lda, 1, b[k0*ldb:], ldb)
				} else {
					Gemm(false, false, m, k1-k0, k0, -1, b, ldb, a[k0*lda:], lda, 1, b[k0*ldb:], ldb)
				}
			}
			triDiagRight(trans, unit, false, k0, k1-k0, a, lda, b, ldb, m)
		}
		return
	}
	for k1 := n; k1 > 0; k1 -= TriBlock {
		k0 := max(0, k1-TriBlock)
		if k1 < n {
			// b[:, k0:k1] -= b[:, k1:n] * op(A)[k1:n, k0:k1].
			if trans {
				Gemm(false, true, m, k1-k0, n-k1, -1, b[k1*ldb:], ldb, a[k1*lda+k0:], lda, 1, b[k0*ldb:], ldb)
			} else {
				Gemm(false, false, m, k1-k0, n-k1, -1, b[k1*ldb:], ldb, a[k0*lda+k1:], lda, 1, b[k0*ldb:], ldb)
			}
		}
		triDiagRight(trans, unit, true, k0, k1-k0, a, lda, b, ldb, m)
	}
}

// triDiagRight solves columns [k0, k0+kb) of the m rows of b against the
// diagonal block [k0, k0+kb) of op(A) from the right: last column first
// when backward (op(A) lower), first column first otherwise.
func triDiagRight[T batchlas.Float](trans, unit, backward bool, k0, kb int, a []T, lda int, b []T, ldb, m int) {
	at := func(i, j int) T { // op(A)(i, j)
		if trans {
			return a[i*lda+j]
		}
		return a[i+j*lda]
	}
	for c := range kb {
		if backward {
			c = kb - 1 - c
		}
		col := b[(k0+c)*ldb:][:m]
		// col -= sum over the block's solved columns c2 of
		// col(c2) * op(A)(c2, c), then divide by the diagonal.
		lo, hi := 0, c
		if backward {
			lo, hi = c+1, kb
		}
		for c2 := lo; c2 < hi; c2++ {
			f := at(k0+c2, k0+c)
			src := b[(k0+c2)*ldb:][:m]
			for r, x := range src {
				col[r] -= x * f
			}
		}
		if !unit {
			d := at(k0+c, k0+c)
			for r := range col {
				col[r] /= d
			}
		}
	}
}
