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
// in op(A), forward otherwise.
func triDiag[T batchlas.Float](trans, unit, backward bool, k0, kb int, a []T, lda int, b []T, ldb, nrhs int) {
	// op(A)(i, j) for i, j in the block.
	at := func(i, j int) T {
		if trans {
			return a[i*lda+j]
		}
		return a[i+j*lda]
	}
	for c := range nrhs {
		x := b[c*ldb+k0:][:kb]
		if backward {
			for i := kb - 1; i >= 0; i-- {
				s := x[i]
				for j := i + 1; j < kb; j++ {
					s -= at(k0+i, k0+j) * x[j]
				}
				if !unit {
					s /= at(k0+i, k0+i)
				}
				x[i] = s
			}
			continue
		}
		for i := range kb {
			s := x[i]
			for j := range i {
				s -= at(k0+i, k0+j) * x[j]
			}
			if !unit {
				s /= at(k0+i, k0+i)
			}
			x[i] = s
		}
	}
}
