package svd

import (
	"unsafe"

	"github.com/batchlas-go/batchlas"
)

// setIdentity writes the m x n identity (ones on the leading diagonal)
// into a (leading dimension lda).
func setIdentity[T batchlas.Float](m, n int, a []T, lda int) {
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+m]
		clear(col)
		if j < m {
			col[j] = 1
		}
	}
}

// swapCols exchanges columns i and j of the matrix a of columns of length
// l, l elements apart.
func swapCols[T batchlas.Float](a []T, l, i, j int) {
	x, y := a[i*l:i*l+l], a[j*l:j*l+l]
	for r := range x {
		x[r], y[r] = y[r], x[r]
	}
}

// sortDesc sorts s[:n] descending by insertion, exchanging the columns of
// g and v (n x n, leading dimension n; v may be nil) alike. Insertion by
// adjacent exchanges is stable (equal values never move past each other)
// and cheap here: the sweeps leave the columns nearly sorted.
func sortDesc[T batchlas.Float](n int, s, g, v []T) {
	for i := 1; i < n; i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
			swapCols(g, n, j, j-1)
			if v != nil {
				swapCols(v, n, j, j-1)
			}
		}
	}
}

// formU turns the n x n matrix g (leading dimension n), whose columns are
// orthogonal with norms s[:n] sorted descending, into an orthogonal
// matrix: columns with s_k > eps*s_max are divided by s_k, the others
// rebuilt by complete.
func formU[T batchlas.Float](n int, g, s []T) {
	thresh := epsilon[T]() * s[0]
	r := 0
	for ; r < n; r++ {
		// Not-greater rather than less-or-equal: a NaN s_k is rebuilt.
		if !(s[r] > thresh) {
			break
		}
		col := g[r*n : r*n+n]
		sk := s[r]
		for i := range col {
			col[i] /= sk
		}
	}
	complete(n, g, r)
}

// complete replaces columns r..n-1 of the n x n matrix g (leading
// dimension n), whose first r columns are orthonormal, by unit vectors
// orthogonalised against the columns before them (twice, by modified
// Gram-Schmidt), taking unit vectors in order and the first whose
// remainder has norm at least 1/(2 sqrt(n)). Such a remainder exists:
// the squared remainders of all n unit vectors sum to n - j >= 1, the
// ones already taken or passed over add less than 1/4, so one of those
// left has at least 3/(4n). Each remainder is normalised.
func complete[T batchlas.Float](n int, g []T, r int) {
	if r >= n {
		return
	}
	accept := 1 / (2 * sqrt(T(n)))
	next := 0
	for j := r; j < n; j++ {
		col := g[j*n : j*n+n]
		best, bestNorm := -1, T(-1)
		taken := false
		for try := 0; try < n; try++ {
			i := (next + try) % n
			nrm := unitRemainder(n, g, j, i)
			if nrm >= accept {
				scaleCol(col, nrm)
				next = i + 1
				taken = true
				break
			}
			if nrm > bestNorm {
				best, bestNorm = i, nrm
			}
		}
		if !taken && best >= 0 {
			// Rounding could only bring a remainder this far below the
			// bound on a broken input (NaN in the kept columns); take the
			// largest so the loop ends either way.
			nrm := unitRemainder(n, g, j, best)
			if nrm > 0 {
				scaleCol(col, nrm)
			}
		}
	}
}

// unitRemainder sets column j of g (n x n, leading dimension n) to the
// unit vector e_i orthogonalised twice against columns 0..j-1 and returns
// its norm.
func unitRemainder[T batchlas.Float](n int, g []T, j, i int) T {
	col := g[j*n : j*n+n]
	clear(col)
	col[i] = 1
	for range 2 {
		for l := 0; l < j; l++ {
			ql := g[l*n : l*n+n]
			var d T
			for r, x := range ql {
				d += x * col[r]
			}
			for r, x := range ql {
				col[r] -= d * x
			}
		}
	}
	return colNorm(col)
}

// scaleCol divides col by nrm.
func scaleCol[T batchlas.Float](col []T, nrm T) {
	for i := range col {
		col[i] /= nrm
	}
}

// argmaxAbs returns the index of the first entry of largest magnitude of
// the n-vector x with elements inc apart; a NaN is never it (0 when every
// entry is NaN, and for n = 0). The magnitudes are compared as bit
// patterns with the sign cleared, which order as the values do: a
// running maximum without a branch, then the first entry that reaches it.
// The loop that compared values branched on every entry and mispredicted
// at each new maximum, a fifth of gesvd's lanes kernel on tall 64 x 8
// matrices with vectors (the sign convention's search down U's columns).
func argmaxAbs[T batchlas.Float](n int, x []T, inc int) int {
	p := unsafe.Pointer(unsafe.SliceData(x))
	if is32[T]() {
		if i, ok := argmaxBits(unsafe.Slice((*uint32)(p), len(x)), n, inc, 1<<31-1, 0x7f800000); ok {
			return i
		}
	} else if i, ok := argmaxBits(unsafe.Slice((*uint64)(p), len(x)), n, inc, 1<<63-1, 0x7ff0000000000000); ok {
		return i
	}
	return argmaxAbsNaN(n, x, inc)
}

// argmaxBits is argmaxAbs on the bit patterns x of the entries, mag
// clearing the sign and inf the pattern of infinity: false when a NaN
// (a pattern above inf) is among them. The largest pattern is maxAbs'
// scan (maxMagnitudeBits), the vector as one column or, strided, as n
// columns of one entry.
func argmaxBits[U uint32 | uint64](x []U, n, inc int, mag, inf U) (int, bool) {
	var top U
	if inc == 1 {
		top = maxMagnitudeBits(x, n, 1, n, mag)
	} else {
		top = maxMagnitudeBits(x, 1, n, inc, mag)
	}
	if top > inf {
		return 0, false
	}
	for i := 0; i < n; i++ {
		if x[i*inc]&mag == top {
			return i, true
		}
	}
	return 0, true
}

// argmaxAbsNaN is argmaxAbs by comparing values, for an x holding a NaN
// (which no comparison lets win).
func argmaxAbsNaN[T batchlas.Float](n int, x []T, inc int) int {
	best, bi := T(-1), 0
	for i := 0; i < n; i++ {
		if a := abs(x[i*inc]); a > best {
			best, bi = a, i
		}
	}
	return bi
}

// negate negates the n-vector x with elements inc apart.
func negate[T batchlas.Float](n int, x []T, inc int) {
	for i := 0; i < n; i++ {
		x[i*inc] = -x[i*inc]
	}
}

// fixSigns applies the sign convention (package doc, step 8) to the
// outputs of Jacobi for an m x n matrix with k = min(m, n): u is m x ucols
// and vt vrows x n as jobu and jobvt say.
func fixSigns[T batchlas.Float](m, n, k int, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int) {
	for j := 0; j < k; j++ {
		switch {
		case jobu != None:
			col := u[j*ldu:]
			if col[argmaxAbs(m, col, 1)] < 0 {
				negate(m, col, 1)
				if jobvt != None {
					negate(n, vt[j:], ldvt)
				}
			}
		case jobvt != None:
			row := vt[j:]
			if row[argmaxAbs(n, row, ldvt)*ldvt] < 0 {
				negate(n, row, ldvt)
			}
		}
	}
	if jobu == All {
		for j := k; j < m; j++ {
			col := u[j*ldu:]
			if col[argmaxAbs(m, col, 1)] < 0 {
				negate(m, col, 1)
			}
		}
	}
	if jobvt == All {
		for j := k; j < n; j++ {
			row := vt[j:]
			if row[argmaxAbs(n, row, ldvt)*ldvt] < 0 {
				negate(n, row, ldvt)
			}
		}
	}
}

// Signs applies Jacobi's sign convention to singular vectors another
// kernel computed (gesvd's vendor kernel), so that results do not change
// sign with the kernel: for an m x n matrix, u is m x ucols and vt vrows x
// n as jobu and jobvt say (nil where None).
func Signs[T batchlas.Float](m, n int, jobu, jobvt Job, u []T, ldu int, vt []T, ldvt int) {
	fixSigns(m, n, min(m, n), jobu, jobvt, u, ldu, vt, ldvt)
}
