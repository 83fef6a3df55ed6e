// Package testmat makes deterministic test inputs for the ops' conformance
// suites: random, SPD, well-conditioned triangular and structured batches
// (those the ops' trials make too come from internal/matgen, re-exported
// here), NaN-poisoned workspaces, and norms for residual checks. It is
// used by tests only: it imports package testing, which the library must
// not link.
package testmat

import (
	"math"
	"math/rand/v2"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// Rand returns a deterministic generator for a test seed (matgen.Rand).
func Rand(seed uint64) *rand.Rand { return matgen.Rand(seed) }

// Batch allocates a batch with the given ld and stride (0 means tight)
// and fills every element of the backing slice, padding included, with
// uniform values in [-1, 1) (matgen.Batch).
func Batch[T batchlas.Float](r *rand.Rand, rows, cols, count, ld, stride int) batchlas.Batch[T] {
	return matgen.Batch[T](r, rows, cols, count, ld, stride)
}

// SPD overwrites every matrix of the square batch a with a random symmetric
// positive definite matrix of modest condition, both triangles
// (matgen.SPD).
func SPD[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T]) { matgen.SPD(r, a) }

// Triangular overwrites the uplo triangle of every matrix of the square
// batch a with a well-conditioned triangle, leaving the other triangle as
// it was (matgen.Triangular).
func Triangular[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T], uplo batchlas.Uplo) {
	matgen.Triangular(r, a, uplo)
}

// Dense copies matrix i of b into a new rows x cols column-major float64
// slice with leading dimension rows (matgen.Dense).
func Dense[T batchlas.Float](b batchlas.Batch[T], i int) []float64 { return matgen.Dense(b, i) }

// WithLD returns src's matrices in a new batch with leading dimension ld
// (stride ld*cols), the rows between its columns random from r: the same
// matrices as a view of a larger array.
func WithLD[T batchlas.Float](r *rand.Rand, src batchlas.Batch[T], ld int) batchlas.Batch[T] {
	out := Batch[T](r, src.Rows, src.Cols, src.Count, ld, 0)
	for i := range src.Count {
		for c := range src.Cols {
			copy(out.Data[i*out.Stride+c*ld:][:src.Rows], src.Data[i*src.Stride+c*src.LD:][:src.Rows])
		}
	}
	return out
}

// Clone returns a deep copy of b.
func Clone[T batchlas.Float](b batchlas.Batch[T]) batchlas.Batch[T] { return matgen.Clone(b) }

// NaNs returns a workspace of n elements, every one NaN, so a kernel that
// reads workspace it did not write poisons its result.
func NaNs[T batchlas.Float](n int) []T {
	ws := make([]T, n)
	for i := range ws {
		ws[i] = T(math.NaN())
	}
	return ws
}

// Eps is the unit round-off of T.
func Eps[T batchlas.Float]() float64 { return matgen.Eps[T]() }

// MaxAbs is the largest absolute value of x (NaN if any element is NaN).
func MaxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		if math.IsNaN(v) {
			return math.NaN()
		}
		m = max(m, math.Abs(v))
	}
	return m
}

// Untouched reports whether got and want agree on every element of the
// backing slice that lies outside the matrices of b (padding between
// columns and between matrices), i.e. whether a kernel wrote only inside
// its matrices.
func Untouched[T batchlas.Float](b batchlas.Batch[T], got, want []T) bool {
	inside := make([]bool, len(got))
	for i := 0; i < b.Count; i++ {
		for c := 0; c < b.Cols; c++ {
			for r := 0; r < b.Rows; r++ {
				inside[i*b.Stride+c*b.LD+r] = true
			}
		}
	}
	for j := range got {
		if !inside[j] && !(got[j] == want[j] || (got[j] != got[j] && want[j] != want[j])) {
			return false
		}
	}
	return true
}
