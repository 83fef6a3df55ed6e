package matgen

import (
	"math"
	"math/rand/v2"

	"github.com/batchlas-go/batchlas"
)

// Rand returns a deterministic generator for a seed.
func Rand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }

// Batch allocates a batch with the given ld and stride (0 means tight:
// ld = max(1, rows), stride = ld*cols) and fills every element of the
// backing slice, padding included, with uniform values in [-1, 1).
// Padding therefore holds values a kernel must not touch.
func Batch[T batchlas.Float](r *rand.Rand, rows, cols, count, ld, stride int) batchlas.Batch[T] {
	if ld == 0 {
		ld = max(1, rows)
	}
	if stride == 0 {
		stride = ld * cols
	}
	n := stride * count
	if count > 0 && stride == 0 {
		n = ld * cols
	}
	data := make([]T, n)
	for i := range data {
		data[i] = T(2*r.Float64() - 1)
	}
	return batchlas.Batch[T]{Data: data, Rows: rows, Cols: cols, LD: ld, Stride: stride, Count: count}
}

// SPD overwrites every matrix of the square batch a with a random symmetric
// positive definite matrix, B*B^T/n + I scaled so its condition number stays
// modest. Both triangles are written.
func SPD[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T]) {
	n := a.Rows
	b := make([]float64, n*n)
	bt := make([]float64, n*n) // B transposed: row r of B is bt[r*n : r*n+n]
	for i := 0; i < a.Count; i++ {
		for j := range b {
			b[j] = 2*r.Float64() - 1
		}
		// The dot products walk rows of B, contiguous in its transpose; read
		// in place they strided by n and made the tuner's inputs at order
		// 512 cost more than timing them. The sums are the same, in the
		// same order.
		for k := 0; k < n; k++ {
			for row := 0; row < n; row++ {
				bt[k+row*n] = b[row+k*n]
			}
		}
		for c := 0; c < n; c++ {
			bc := bt[c*n : c*n+n]
			for row := c; row < n; row++ {
				br := bt[row*n : row*n+n]
				s := 0.0
				for k, x := range br {
					s += x * bc[k]
				}
				s /= float64(n)
				if row == c {
					s += 1
				}
				a.Set(i, row, c, T(s))
				a.Set(i, c, row, T(s))
			}
		}
	}
}

// Triangular overwrites every matrix of the square batch a with a
// well-conditioned triangle: off-diagonal entries uniform in [-1, 1)/n and a
// diagonal in [1, 2) with random sign. The other triangle is left as it was,
// so a kernel that reads it produces a wrong answer.
func Triangular[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T], uplo batchlas.Uplo) {
	n := a.Rows
	for i := 0; i < a.Count; i++ {
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				if (uplo == batchlas.Lower && row > c) || (uplo == batchlas.Upper && row < c) {
					a.Set(i, row, c, T((2*r.Float64()-1)/float64(n)))
				}
			}
			d := 1 + r.Float64()
			if r.IntN(2) == 0 {
				d = -d
			}
			a.Set(i, c, c, T(d))
		}
	}
}

// General overwrites every matrix of the square batch a with a
// well-conditioned general matrix for LU with partial pivoting:
// R + 2*sqrt(n)*Q, R uniform in [-1, 1) and Q a random permutation matrix.
// The weighted entries dominate (the 2-norm of R is about 1.15*sqrt(n)),
// so the condition number stays small (about 4), and each column's
// largest entry sits in a random row: partial pivoting interchanges rows
// at almost every step, as on typical data, and every pivot is chosen by a
// wide margin, so kernels that round differently still choose the same
// rows. Padding is left as it was.
func General[T batchlas.Float](r *rand.Rand, a batchlas.Batch[T]) {
	n := a.Rows
	w := 2 * math.Sqrt(float64(n))
	for i := 0; i < a.Count; i++ {
		for c := 0; c < n; c++ {
			for row := 0; row < n; row++ {
				a.Set(i, row, c, T(2*r.Float64()-1))
			}
		}
		for c, row := range r.Perm(n) {
			a.Set(i, row, c, a.At(i, row, c)+T(w))
		}
	}
}

// Dense copies matrix i of b into a new rows x cols column-major float64
// slice with leading dimension rows.
func Dense[T batchlas.Float](b batchlas.Batch[T], i int) []float64 {
	out := make([]float64, b.Rows*b.Cols)
	for c := 0; c < b.Cols; c++ {
		for r := 0; r < b.Rows; r++ {
			out[r+c*b.Rows] = float64(b.At(i, r, c))
		}
	}
	return out
}

// Clone returns a deep copy of b.
func Clone[T batchlas.Float](b batchlas.Batch[T]) batchlas.Batch[T] {
	b.Data = append([]T(nil), b.Data...)
	return b
}

// Eps is the unit round-off of T.
func Eps[T batchlas.Float]() float64 {
	var z T
	if _, ok := any(z).(float32); ok {
		return 0x1p-24
	}
	return 0x1p-53
}
