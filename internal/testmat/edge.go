package testmat

import (
	"fmt"
	"math"
	"strings"

	"github.com/batchlas-go/batchlas"
)

// The inputs of the non-finite rule (docs/guide.md, "Errors and
// per-matrix failures"): every candidate of a factorisation or solve gives
// the reference candidate's info and the same finite/non-finite pattern on
// inputs where rounding does not decide the outcome. Each Edge is one such
// input: a matrix built from small integers (exact in float32 and
// float64), then scaled, zeroed or poisoned so that which pivot fails, and
// which outputs are Inf or NaN, follows from the structure alone.

// Not among them: an Inf in X (or in an intermediate of the solve) that
// meets an exact zero of the factor, as B = e_k against a diagonal A
// whose X overflows. Reference BLAS skips a zero element of B in its
// triangular solves (so 0*Inf = NaN is computed where A is zero), gonum
// skips a zero element of A (so it is not): implementations differ, and
// the rule does not say which one the candidates follow.

// Edge is one input class at one order: A (column-major n x n, both
// triangles for the SPD classes) and the right-hand sides B (n x EdgeRHS),
// both as float64 holding values exact in the test's dtype.
type Edge struct {
	Name string
	A, B []float64
}

// EdgeRHS is the number of right-hand sides of every Edge.
const EdgeRHS = 2

// edgeScales are the dtype's stand-ins for the scalings 1e-310 and 1e+300
// and the scale s of a subnormal pivot s*s*a(k,k): every product of the
// factorisation stays in range and every pivot's sign follows from the
// unscaled matrix.
func edgeScales(f32 bool) (tiny, huge, sub float64) {
	if f32 {
		return 1e-40, 1e+30, 1e-21
	}
	return 1e-310, 1e+300, 1e-156
}

// goodSPD is symmetric with 16n on the diagonal and 1..3 off it: strongly
// diagonally dominant, so every entry of its Cholesky factor is positive
// by a margin no rounding closes (the update of an entry takes off at
// most 9k/16n < 1 from an entry >= 1).
func goodSPD(n int) []float64 {
	a := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			if r == c {
				a[r+c*n] = float64(16 * n)
			} else {
				a[r+c*n] = float64(1 + (r+c)%3)
			}
		}
	}
	return a
}

// goodGeneral is goodSPD made unsymmetric: partial pivoting keeps the
// diagonal, and every multiplier and entry of U is positive.
func goodGeneral(n int) []float64 {
	a := goodSPD(n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			if r != c {
				a[r+c*n] = float64(1 + (2*r+c)%3)
			}
		}
	}
	return a
}

// ldlt is L*D*L^T for L unit lower with entries 1..3 below the diagonal
// and D = I except D[k] = d: the pivot of column k+1 is exactly d (every
// value is a small integer), the leading minors before it positive.
func ldlt(n, k int, d float64) []float64 {
	l := func(r, c int) float64 {
		switch {
		case r == c:
			return 1
		case r > c:
			return float64(1 + (r+c)%3)
		}
		return 0
	}
	a := make([]float64, n*n)
	for r := 0; r < n; r++ {
		for c := 0; c <= r; c++ {
			s := 0.0
			for j := 0; j <= c; j++ {
				dj := 1.0
				if j == k {
					dj = d
				}
				s += l(r, j) * dj * l(c, j)
			}
			a[r+c*n], a[c+r*n] = s, s
		}
	}
	return a
}

// rhs is the right-hand sides: small integers.
func rhs(n int) []float64 {
	b := make([]float64, n*EdgeRHS)
	for i := range b {
		b[i] = float64(1 + i%5)
	}
	return b
}

// edgePositions are the rows and columns the classes poison: first,
// middle and last, without repeats.
func edgePositions(n int) []int {
	ks := []int{0}
	if n/2 > 0 {
		ks = append(ks, n/2)
	}
	if n-1 > n/2 {
		ks = append(ks, n-1)
	}
	return ks
}

func scaled(x []float64, s float64) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * s
	}
	return y
}

// rowScaled is the n-row matrix x with row k scaled by s.
func rowScaled(x []float64, n, k int, s float64) []float64 {
	y := append([]float64(nil), x...)
	for i := k; i < len(y); i += n {
		y[i] *= s
	}
	return y
}

func with(x []float64, i int, v float64) []float64 {
	y := append([]float64(nil), x...)
	y[i] = v
	return y
}

// common is the classes SPD and general matrices share, good the good
// matrix of the kind and sym whether a poisoned off-diagonal entry is
// mirrored.
func common(n int, f32 bool, good []float64, sym bool) []Edge {
	tiny, huge, _ := edgeScales(f32)
	b := rhs(n)
	inf, nan := math.Inf(1), math.NaN()
	e := []Edge{
		{"good", good, b},
		{"scaled tiny", scaled(good, tiny), scaled(b, tiny)},
		{"scaled huge", scaled(good, huge), scaled(b, huge)},
		{"zero", make([]float64, n*n), b},
	}
	diag := make([]float64, n*n)
	for k := 0; k < n; k++ {
		diag[k+k*n] = float64(1 + k%3)
	}
	e = append(e, Edge{"diagonal scaled tiny", scaled(diag, tiny), scaled(b, tiny)})
	id := make([]float64, n*n)
	for k := 0; k < n; k++ {
		id[k+k*n] = 1
	}
	for _, k := range edgePositions(n) {
		p := fmt.Sprintf("(%d,%d)", k, k)
		e = append(e,
			Edge{"identity, tiny " + p, with(id, k+k*n, tiny), rowScaled(b, n, k, tiny)},
			Edge{"+Inf at " + p, with(good, k+k*n, inf), b},
			Edge{"NaN at " + p, with(good, k+k*n, nan), b},
			Edge{"identity, +Inf at " + p, with(id, k+k*n, inf), b},
			Edge{fmt.Sprintf("NaN in B row %d", k), good, with(b, k, nan)},
			Edge{fmt.Sprintf("+Inf in B row %d", k), good, with(b, k, inf)},
		)
	}
	if n > 1 {
		for _, v := range []float64{inf, -inf, nan} {
			for _, rc := range [][2]int{{n - 1, 0}, {1, 0}, {0, n - 1}} {
				a := with(good, rc[0]+rc[1]*n, v)
				if sym {
					if rc[0] < rc[1] {
						continue // the same matrix as its mirror
					}
					a[rc[1]+rc[0]*n] = v
				}
				e = append(e, Edge{fmt.Sprintf("%v at (%d,%d)", v, rc[0], rc[1]), a, b})
			}
		}
	}
	return e
}

// SPDEdges is the classes for the Cholesky ops (potrf, posv) at order n:
// those of common plus an exactly zero or negative pivot at a column, and
// a subnormal pivot s*s*a(k,k) in a matrix scaled by s in row and column k.
func SPDEdges(n int, f32 bool) []Edge {
	good := goodSPD(n)
	e := common(n, f32, good, true)
	_, _, sub := edgeScales(f32)
	b := rhs(n)
	for _, k := range edgePositions(n) {
		e = append(e,
			Edge{fmt.Sprintf("zero pivot %d", k+1), ldlt(n, k, 0), b},
			Edge{fmt.Sprintf("negative pivot %d", k+1), ldlt(n, k, -1), b},
		)
		s := append([]float64(nil), good...)
		for i := 0; i < n; i++ {
			s[k+i*n] *= sub
			s[i+k*n] *= sub
		}
		// B's row k scaled alike keeps X = S^-1 * G^-1 * B finite.
		e = append(e, Edge{fmt.Sprintf("subnormal pivot %d", k+1), s, rowScaled(b, n, k, sub)})
	}
	return e
}

// GeneralEdges is the classes for the LU ops (getrf, gesv) at order n:
// those of common plus exact rank deficiency (a zero column: the pivot of
// that column is exactly zero; a zero row: the last pivot is), the rows
// of the identity swapped (pivoting on exact ones and zeros) and a first
// column all +Inf.
func GeneralEdges(n int, f32 bool) []Edge {
	good := goodGeneral(n)
	e := common(n, f32, good, false)
	b := rhs(n)
	for _, k := range edgePositions(n) {
		col := append([]float64(nil), good...)
		row := append([]float64(nil), good...)
		for i := 0; i < n; i++ {
			col[i+k*n] = 0
			row[k+i*n] = 0
		}
		e = append(e,
			Edge{fmt.Sprintf("zero column %d", k), col, b},
			Edge{fmt.Sprintf("zero row %d", k), row, b},
		)
	}
	perm := make([]float64, n*n)
	for c := 0; c < n; c++ {
		perm[(n-1-c)+c*n] = 1
	}
	e = append(e, Edge{"reversed identity", perm, b})
	// An infinite pivot over more Inf in its column: LAPACK scales the
	// column by 1/Inf = 0, which makes those entries NaN (0*Inf), where a
	// BLAS that writes zeros for a zero factor would not.
	infCol := append([]float64(nil), good...)
	for i := 0; i < n; i++ {
		infCol[i] = math.Inf(1)
	}
	e = append(e, Edge{"+Inf column 0", infCol, b})
	return e
}

// EdgeBatch lays the classes out as one batch of a (n x n) and one of b
// (n x EdgeRHS), matrix i holding class i, every element outside the
// matrices NaN, so the classes share every call and a kernel whose
// result for one depends on a neighbour shows.
func EdgeBatch[T batchlas.Float](n int, edges []Edge) (a, b batchlas.Batch[T]) {
	count := len(edges)
	lda, ldb := n+1, n+2
	a = batchlas.Batch[T]{Data: NaNs[T](lda*n*count + 3), Rows: n, Cols: n, LD: lda, Stride: lda * n, Count: count}
	b = batchlas.Batch[T]{Data: NaNs[T](ldb*EdgeRHS*count + 3), Rows: n, Cols: EdgeRHS, LD: ldb, Stride: ldb * EdgeRHS, Count: count}
	for i, e := range edges {
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				a.Set(i, r, c, T(e.A[r+c*n]))
			}
			for r := 0; r < n && c < EdgeRHS; r++ {
				b.Set(i, r, c, T(e.B[r+c*n]))
			}
		}
	}
	return a, b
}

// Pattern is the finite/non-finite pattern of matrix i of x: one
// character per element, column by column ('.' finite, '+' +Inf, '-'
// -Inf, 'N' NaN), columns separated by '|'. When tri is Lower or Upper
// only that triangle is read (the other shown as ' ').
func Pattern[T batchlas.Float](x batchlas.Batch[T], i int, tri byte) string {
	var sb strings.Builder
	for c := 0; c < x.Cols; c++ {
		if c > 0 {
			sb.WriteByte('|')
		}
		for r := 0; r < x.Rows; r++ {
			if (tri == 'L' && r < c) || (tri == 'U' && r > c) {
				sb.WriteByte(' ')
				continue
			}
			v := float64(x.At(i, r, c))
			switch {
			case math.IsNaN(v):
				sb.WriteByte('N')
			case math.IsInf(v, 1):
				sb.WriteByte('+')
			case math.IsInf(v, -1):
				sb.WriteByte('-')
			default:
				sb.WriteByte('.')
			}
		}
	}
	return sb.String()
}

// Infos is the per-matrix info of a call's error over count matrices:
// zero for every matrix a *batchlas.NumericalError does not list. ok is
// false for any other non-nil error.
func Infos(err error, count int) (info []int, ok bool) {
	info = make([]int, count)
	if err == nil {
		return info, true
	}
	ne, isNE := err.(*batchlas.NumericalError)
	if !isNE {
		return nil, false
	}
	for k, i := range ne.Index {
		info[i] = ne.Info[k]
	}
	return info, true
}

// ConformOrders are the orders the non-finite rule is checked at: every
// order of the tiny kernels (a straight-line function per order to 12,
// the stack array to 16) and one past, then each other kernel's limits
// and their neighbours (the lanes kernels' 32, panel widths 8, 16, 32, the
// 64-column blocks).
var ConformOrders = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 24, 31, 32, 33, 63, 64, 65}
