package getrf

import (
	"math/rand/v2"
	"slices"

	"github.com/batchlas-go/batchlas"
)

// exactCase is a matrix A = P*L0*U0 whose LU with partial pivoting is
// computed without rounding in float32 and float64, whatever the order of
// the sums: every entry, partial sum, multiplier and pivot is a small
// multiple of 1/16 and every pivot a power of two, so its reciprocal is
// exact. Every kernel must then return exactly L0, U0 and the pivots
// below.
type exactCase struct {
	n      int
	a      []float64 // A, column-major n x n
	l, u   []float64 // L0 (unit diagonal stored as 1) and U0, column-major
	ipiv   []int32   // the interchanges partial pivoting makes on A
	info   int
	perm   []int // row pos of A is row perm[pos] of L0*U0
	zeroes []int // the rows of U0 that are zero
}

// newExact builds an exact case of order n. L0's entries below the
// diagonal are in {0, ±1/4, ±1/2}, or also ±1 with ties (then a candidate
// ties with the diagonal in |.|, and the first row, the diagonal's, must
// win: no interchange at all); U0's are integers in [-3, 3] with a diagonal
// of ±1 or ±2, so each column's pivot is the row carrying L0's 1 by a
// factor of at least 2, or tied. The rows of U0 listed in zero are zero,
// and so are L0's columns below them (a zero pivot leaves its column as it
// is, zeros here), making A singular with info the first of them + 1.
// permute mixes A's rows with a random permutation (not with ties or
// zero: a tie or a zero pivot would keep a row out of its place).
func newExact(r *rand.Rand, n int, zero []int, ties, permute bool) *exactCase {
	e := &exactCase{n: n, l: make([]float64, n*n), u: make([]float64, n*n), zeroes: zero}
	lvals := []float64{0, 0.25, -0.25, 0.5, -0.5}
	if ties {
		lvals = append(lvals, 1, -1)
	}
	for c := 0; c < n; c++ {
		e.l[c*n+c] = 1
		for row := c + 1; row < n; row++ {
			if !slices.Contains(zero, c) {
				e.l[c*n+row] = lvals[r.IntN(len(lvals))]
			}
		}
		for row := 0; row < c; row++ {
			e.u[c*n+row] = float64(r.IntN(7) - 3)
		}
		e.u[c*n+c] = []float64{1, -1, 2, -2}[r.IntN(4)]
	}
	for _, q := range zero {
		for c := q; c < n; c++ {
			e.u[c*n+q] = 0
		}
	}
	e.perm = make([]int, n)
	for i := range e.perm {
		e.perm[i] = i
	}
	if permute {
		e.perm = r.Perm(n)
	}
	// A = P*L0*U0.
	e.a = make([]float64, n*n)
	for c := 0; c < n; c++ {
		for pos := 0; pos < n; pos++ {
			row := e.perm[pos]
			s := 0.0
			for k := 0; k <= min(row, c); k++ {
				s += e.l[k*n+row] * e.u[c*n+k]
			}
			e.a[c*n+pos] = s
		}
	}
	// The interchanges: at step j the pivot is the position holding L0's
	// row j (a zero pivot keeps the row in place: only without permute).
	at := slices.Clone(e.perm)
	e.ipiv = make([]int32, n)
	for j := 0; j < n; j++ {
		p := slices.Index(at[j:], j) + j
		e.ipiv[j] = int32(p)
		at[j], at[p] = at[p], at[j]
	}
	if len(zero) > 0 {
		e.info = slices.Min(zero) + 1
	}
	return e
}

// set writes the case into matrix i of b.
func (e *exactCase) set(b batchlas.Batch[float64], i int) { setFrom(b, i, e.a) }

// setFrom writes the column-major n x n values v into matrix i of b.
func setFrom[T batchlas.Float](b batchlas.Batch[T], i int, v []float64) {
	n := b.Rows
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			b.Set(i, r, c, T(v[c*n+r]))
		}
	}
}

// factors is the packed result LAPACK stores: L0 below the diagonal, U0 on
// and above it.
func (e *exactCase) factors() []float64 {
	n := e.n
	out := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			if r > c {
				out[c*n+r] = e.l[c*n+r]
			} else {
				out[c*n+r] = e.u[c*n+r]
			}
		}
	}
	return out
}
