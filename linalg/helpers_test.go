package linalg_test

import (
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestMain flushes the coverage instrument's counts (BATCHLAS_COVERAGE_OUT)
// at the end, as the ops' tests do: the calls here run their kernels too.
func TestMain(m *testing.M) {
	code := m.Run()
	sel.Flush()
	os.Exit(code)
}

// orders straddle the ops' small and large kernels: the lanes and tiny
// limits (8, 16, 32) and the blocked widths.
var orders = []int{0, 1, 3, 8, 17, 33}

// eps is the unit round-off of T.
func eps[T batchlas.Float]() float64 { return testmat.Eps[T]() }

// tol is the relative error these tests accept for order n in T: the
// matrices are well conditioned (condition numbers of a few units to a
// few tens), so a backward-stable result is within a small multiple of
// n*eps.
func tol[T batchlas.Float](n int) float64 { return 500 * float64(max(n, 1)) * eps[T]() }

// dense returns matrix i of b as a gonum matrix (float64).
func dense[T batchlas.Float](b batchlas.Batch[T], i int) *mat.Dense {
	d := mat.NewDense(b.Rows, b.Cols, nil) // callers skip order 0
	for c := range b.Cols {
		for r := range b.Rows {
			d.Set(r, c, float64(b.At(i, r, c)))
		}
	}
	return d
}

// symLower returns matrix i of b as a gonum symmetric matrix made from
// its lower triangle.
func symLower[T batchlas.Float](b batchlas.Batch[T], i int) *mat.SymDense {
	n := b.Rows
	s := mat.NewSymDense(n, nil)
	for c := range n {
		for r := c; r < n; r++ {
			s.SetSym(r, c, float64(b.At(i, r, c)))
		}
	}
	return s
}

// maxDiff returns max |got(i) - want| over the matrix, and max |want|.
func maxDiff[T batchlas.Float](got batchlas.Batch[T], i int, want mat.Matrix) (diff, scale float64) {
	for c := range got.Cols {
		for r := range got.Rows {
			w := want.At(r, c)
			diff = math.Max(diff, math.Abs(float64(got.At(i, r, c))-w))
			scale = math.Max(scale, math.Abs(w))
		}
	}
	return diff, scale
}

// close reports whether matrix i of got is want within tol[T](n),
// relative to want's largest entry (and 1, for tiny results).
func closeTo[T batchlas.Float](t *testing.T, what string, got batchlas.Batch[T], i int, want mat.Matrix, n int) {
	t.Helper()
	diff, scale := maxDiff(got, i, want)
	if !(diff <= tol[T](n)*math.Max(scale, 1)) {
		t.Errorf("%s: matrix %d differs from gonum's by %.3g (scale %.3g, tolerance %.3g)", what, i, diff, scale, tol[T](n)*math.Max(scale, 1))
	}
}

// general returns count well-conditioned n x n general matrices and
// count n x nrhs right-hand sides; view gives both a leading dimension
// larger than their rows and gaps between matrices, random values in the
// padding.
func general[T batchlas.Float](seed uint64, n, nrhs, count int, view bool) (a, b batchlas.Batch[T]) {
	r := testmat.Rand(seed)
	a = testmat.Batch[T](r, n, n, count, 0, 0)
	testmat.General(r, a)
	b = testmat.Batch[T](r, n, nrhs, count, 0, 0)
	if view {
		a = asView(r.Uint64(), a)
		b = asView(r.Uint64(), b)
	}
	return a, b
}

// spd returns count n x n symmetric positive definite matrices whose
// strictly upper triangle is NaN (never read) and count n x nrhs
// right-hand sides; view as for general.
func spd[T batchlas.Float](seed uint64, n, nrhs, count int, view bool) (a, b batchlas.Batch[T]) {
	r := testmat.Rand(seed)
	a = testmat.Batch[T](r, n, n, count, 0, 0)
	testmat.SPD(r, a)
	upperNaN(a)
	b = testmat.Batch[T](r, n, nrhs, count, 0, 0)
	if view {
		a = asView(r.Uint64(), a)
		b = asView(r.Uint64(), b)
	}
	return a, b
}

// upperNaN sets the strictly upper triangle of every matrix of a to NaN.
func upperNaN[T batchlas.Float](a batchlas.Batch[T]) {
	for i := range a.Count {
		for c := range a.Cols {
			for r := 0; r < min(c, a.Rows); r++ {
				a.Set(i, r, c, T(math.NaN()))
			}
		}
	}
}

// asView returns b's matrices in a batch with LD = Rows+2 and three spare
// elements between matrices: a view of a larger array.
func asView[T batchlas.Float](seed uint64, b batchlas.Batch[T]) batchlas.Batch[T] {
	r := testmat.Rand(seed)
	ld := b.Rows + 2
	v := testmat.Batch[T](r, b.Rows, b.Cols, b.Count, ld, ld*b.Cols+3)
	for i := range b.Count {
		for c := range b.Cols {
			for row := range b.Rows {
				v.Set(i, row, c, b.At(i, row, c))
			}
		}
	}
	return v
}

// snapshot returns the bits of every element of data, padding included.
func snapshot[T batchlas.Float](data []T) []uint64 {
	out := make([]uint64, len(data))
	for k, v := range data {
		out[k] = math.Float64bits(float64(v))
	}
	return out
}

// unchanged fails t unless data still has the bits of before.
func unchanged[T batchlas.Float](t *testing.T, what string, data []T, before []uint64) {
	t.Helper()
	now := snapshot(data)
	for k := range before {
		if now[k] != before[k] {
			t.Errorf("%s was modified: element %d of its storage", what, k)
			return
		}
	}
}

// tight fails t unless b is a new tight batch of count rows x cols.
func tight[T batchlas.Float](t *testing.T, what string, b batchlas.Batch[T], rows, cols, count int) {
	t.Helper()
	if b.Rows != rows || b.Cols != cols || b.Count != count || b.LD != max(1, rows) || b.Stride != b.LD*cols || b.IsBroadcast() {
		t.Errorf("%s: got %dx%d count %d ld %d stride %d (broadcast %v), want a tight batch of %d %dx%d", what, b.Rows, b.Cols, b.Count, b.LD, b.Stride, b.IsBroadcast(), count, rows, cols)
	}
}

// allNaN reports whether every element of matrix i of b is NaN.
func allNaN[T batchlas.Float](b batchlas.Batch[T], i int) bool {
	for c := range b.Cols {
		for r := range b.Rows {
			if !math.IsNaN(float64(b.At(i, r, c))) {
				return false
			}
		}
	}
	return true
}

// each runs f for float32 and float64.
func each(t *testing.T, f32, f64 func(t *testing.T)) {
	t.Run("float32", f32)
	t.Run("float64", f64)
}
