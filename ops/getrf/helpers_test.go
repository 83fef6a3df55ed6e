package getrf

import (
	"context"
	"github.com/batchlas-go/batchlas/internal/lu"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// pin returns ctx with candidate c pinned for getrf.
func pin(c sel.Choice) context.Context {
	return sel.WithPin(context.Background(), "getrf", c.String())
}

// property is one conformance property, run for one candidate: ctx pins
// the candidate.
type property func(t *testing.T, ctx context.Context, c sel.Choice)

// forEachCandidate runs f for every compiled candidate of both dtypes,
// iterating Op.Candidates (never a retyped list).
func forEachCandidate(t *testing.T, f32, f64 property) {
	for _, dt := range []sel.DType{sel.Float32, sel.Float64} {
		f := f64
		if dt == sel.Float32 {
			f = f32
		}
		for _, c := range Op.Candidates(dt) {
			t.Run(string(dt)+"/"+c.String(), func(t *testing.T) { f(t, pin(c), c) })
		}
	}
}

// runnable reports whether c can run order n on the host.
func runnable(c sel.Choice, n, count int) bool {
	return Op.CanRun(c, sel.MakeKey(sel.Int(n), sel.Int(count)), batchlas.Host())
}

// poison is the value of every ipiv entry a call must not write.
const poison int32 = -7

// padded allocates an n x n batch of count matrices with ld = n+3 and
// stride = ld*n+5 (padded) or tight, fills it with fill, and poisons every
// element outside the matrices with NaN: a kernel that reads padding
// spreads NaN into its result, one that writes it is caught by
// testmat.Untouched.
func padded[T batchlas.Float](r *rand.Rand, n, count int, pad bool, fill func(batchlas.Batch[T])) batchlas.Batch[T] {
	ld, stride := 0, 0
	if pad {
		ld = n + 3
		stride = ld*n + 5
	}
	a := testmat.Batch[T](r, n, n, count, ld, stride)
	if fill != nil {
		fill(a)
	}
	inside := make([]bool, len(a.Data))
	for i := 0; i < a.Count; i++ {
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				inside[i*a.Stride+c*a.LD+row] = true
			}
		}
	}
	for j, in := range inside {
		if !in {
			a.Data[j] = T(math.NaN())
		}
	}
	return a
}

// randomBatch is a padded batch of uniform random matrices in [-1, 1):
// typical data, pivots chosen among continuous values.
func randomBatch[T batchlas.Float](r *rand.Rand, n, count int, pad bool) batchlas.Batch[T] {
	return padded[T](r, n, count, pad, nil)
}

// pivotsFor allocates count pivot vectors for order n, with Len n+2 and
// Stride n+5 when pad is set (tight otherwise), every entry poison.
func pivotsFor(n, count int, pad bool) batchlas.Vectors[int32] {
	length, stride := n, n
	if pad {
		length, stride = n+2, n+5
	}
	data := make([]int32, stride*count)
	for j := range data {
		data[j] = poison
	}
	v, err := batchlas.WrapStridedVectors(data, length, stride, count)
	if err != nil {
		panic(err)
	}
	return v
}

// pivotsUntouched reports the first ipiv element outside the first n
// entries of its vectors [0, count) that is no longer poison, or -1.
func pivotsUntouched(ipiv batchlas.Vectors[int32], n int) int {
	written := make([]bool, len(ipiv.Data))
	for i := 0; i < ipiv.Count; i++ {
		for j := 0; j < n; j++ {
			written[i*ipiv.Stride+j] = true
		}
	}
	for j, w := range written {
		if !w && ipiv.Data[j] != poison {
			return j
		}
	}
	return -1
}

// refLU is the test's reference: a textbook right-looking LU of the n x n
// column-major matrix m (leading dimension n) in T arithmetic, written from
// the package documentation's rules (pivot: the first row of strictly
// largest |a|, compared against the entry chosen so far; no scaling at a
// zero pivot; reciprocal scaling above the safe minimum), in place. It
// returns the pivots and info.
func refLU[T batchlas.Float](m []T, n int) ([]int32, int) {
	piv := make([]int32, n)
	small := lu.SafeMin[T]()
	at := func(r, c int) *T { return &m[c*n+r] }
	mag := func(x T) float64 { return math.Abs(float64(x)) }
	for j := 0; j < n; j++ {
		p := j
		for i := j + 1; i < n; i++ {
			if mag(*at(i, j)) > mag(*at(p, j)) {
				p = i
			}
		}
		piv[j] = int32(p)
		for c := 0; c < n; c++ {
			*at(j, c), *at(p, c) = *at(p, c), *at(j, c)
		}
		if pv := *at(j, j); pv != 0 {
			for i := j + 1; i < n; i++ {
				if mag(pv) >= float64(small) {
					*at(i, j) *= 1 / pv
				} else {
					*at(i, j) /= pv
				}
			}
		}
		for c := j + 1; c < n; c++ {
			for i := j + 1; i < n; i++ {
				*at(i, c) -= *at(i, j) * *at(j, c)
			}
		}
	}
	for j := 0; j < n; j++ {
		if !(mag(*at(j, j)) > 0) {
			return piv, j + 1
		}
	}
	return piv, 0
}

// matrixOf copies matrix i of b into a tight column-major slice of T.
func matrixOf[T batchlas.Float](b batchlas.Batch[T], i int) []T {
	n := b.Rows
	out := make([]T, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			out[c*n+r] = b.At(i, r, c)
		}
	}
	return out
}

// gonumLU factors matrix i of b (as float64) with gonum's Dgetrf on an
// explicitly transposed copy (gonum is row-major, so the column-major data
// read as it is would be A^T) and returns the factors column-major and
// the pivots.
func gonumLU[T batchlas.Float](b batchlas.Batch[T], i int) ([]float64, []int32) {
	n := b.Rows
	rm := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			rm[r*n+c] = float64(b.At(i, r, c))
		}
	}
	p := make([]int, n)
	gonum.Implementation{}.Dgetrf(n, n, rm, max(1, n), p)
	out := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			out[c*n+r] = rm[r*n+c]
		}
	}
	piv := make([]int32, n)
	for j, v := range p {
		piv[j] = int32(v)
	}
	return out, piv
}

// residualC bounds the backward error of every candidate, elementwise:
// |A - P*L*U| <= residualC * n * eps * (P*|L|*|U|) (LU with partial
// pivoting in any summation order satisfies it with about n*eps; the
// reference product adds its own rounding for float64).
const residualC = 4

// residual is the largest |A - P*L*U|_ij / (n*eps*(P*|L|*|U|)_ij) of matrix
// i (in float64 arithmetic), +Inf for a NaN, where L and U are read from
// got, P from ipiv and A from orig; an element whose scale is 0 must match
// exactly.
func residual[T batchlas.Float](orig, got batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int) float64 {
	n := orig.Rows
	lu := make([]float64, n*n)    // L*U
	scale := make([]float64, n*n) // |L|*|U|
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			s, abs := 0.0, 0.0
			for k := 0; k <= min(r, c); k++ {
				l := 1.0
				if k < r {
					l = float64(got.At(i, r, k))
				}
				u := float64(got.At(i, k, c))
				s += l * u
				abs += math.Abs(l * u)
			}
			lu[c*n+r], scale[c*n+r] = s, abs
		}
	}
	// P*(L*U): undo the interchanges, last first.
	for j := n - 1; j >= 0; j-- {
		p := int(ipiv.At(i, j))
		for c := 0; c < n; c++ {
			lu[c*n+j], lu[c*n+p] = lu[c*n+p], lu[c*n+j]
			scale[c*n+j], scale[c*n+p] = scale[c*n+p], scale[c*n+j]
		}
	}
	worst := 0.0
	unit := float64(max(n, 1)) * testmat.Eps[T]()
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			d := math.Abs(float64(orig.At(i, r, c)) - lu[c*n+r])
			switch {
			case math.IsNaN(d):
				return math.Inf(1)
			case d == 0:
			case scale[c*n+r] == 0:
				return math.Inf(1)
			default:
				worst = max(worst, d/(unit*scale[c*n+r]))
			}
		}
	}
	return worst
}

// checkPivots fails t unless matrix i's pivots satisfy j <= ipiv[j] < n.
func checkPivots(t *testing.T, ipiv batchlas.Vectors[int32], i, n int, what string) {
	t.Helper()
	for j := 0; j < n; j++ {
		if p := int(ipiv.At(i, j)); p < j || p >= n {
			t.Fatalf("%s: matrix %d: ipiv[%d] = %d, want in [%d, %d)", what, i, j, p, j, n)
		}
	}
}

// checkLU fails t unless every matrix of got (factored from orig, pivots
// in ipiv) has valid pivots, multipliers of magnitude at most 1 (partial
// pivoting), a backward error within residualC, and left all padding of
// a and ipiv untouched.
func checkLU[T batchlas.Float](t *testing.T, orig, got batchlas.Batch[T], ipiv batchlas.Vectors[int32], what string) {
	t.Helper()
	n := orig.Rows
	eps := testmat.Eps[T]()
	for i := 0; i < orig.Count; i++ {
		checkPivots(t, ipiv, i, n, what)
		for c := 0; c < n; c++ {
			for r := c + 1; r < n; r++ {
				// x*(1/p) with |x| <= |p| can round a hair above 1.
				if l := math.Abs(float64(got.At(i, r, c))); !(l <= 1+2*eps) {
					t.Fatalf("%s: matrix %d: |L(%d,%d)| = %g > 1: not partial pivoting", what, i, r, c, l)
				}
			}
		}
		if res := residual(orig, got, ipiv, i); !(res <= residualC) {
			t.Fatalf("%s: matrix %d of %d (n=%d): |A - P*L*U| is %.3g n*eps*|L||U| > %d", what, i, orig.Count, n, res, residualC)
		}
	}
	if !testmat.Untouched(got, got.Data, orig.Data) {
		t.Fatalf("%s: padding outside the matrices changed", what)
	}
	if j := pivotsUntouched(ipiv, n); j >= 0 {
		t.Fatalf("%s: ipiv.Data[%d] = %d outside the first n entries was written", what, j, ipiv.Data[j])
	}
}

// factorTol bounds the difference between a candidate's factors and a
// reference's with the same pivots: factorC * n * eps times the largest
// factor entry of the reference, elementwise.
const factorC = 64

// checkAgainst fails t unless matrix i of got has the pivots want and
// factors within factorTol of ref (column-major n x n, float64).
func checkAgainst[T batchlas.Float](t *testing.T, got batchlas.Batch[T], ipiv batchlas.Vectors[int32], i int, ref []float64, want []int32, what string) {
	t.Helper()
	n := got.Rows
	for j := 0; j < n; j++ {
		if ipiv.At(i, j) != want[j] {
			t.Fatalf("%s: matrix %d (n=%d): ipiv[%d] = %d, reference %d", what, i, n, j, ipiv.At(i, j), want[j])
		}
	}
	tol := factorC * float64(max(n, 1)) * testmat.Eps[T]() * max(testmat.MaxAbs(ref), 1)
	for c := 0; c < n; c++ {
		for r := 0; r < n; r++ {
			g := float64(got.At(i, r, c))
			if d := math.Abs(g - ref[c*n+r]); !(d <= tol) {
				t.Fatalf("%s: matrix %d (n=%d): factor (%d,%d) = %g, reference %g (tolerance %.3g)", what, i, n, r, c, g, ref[c*n+r], tol)
			}
		}
	}
}

// toF64 converts a slice of T.
func toF64[T batchlas.Float](x []T) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}
