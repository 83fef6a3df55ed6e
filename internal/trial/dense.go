package trial

import (
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/matgen"
)

// CheckedMatrices are the matrices of a batch a verification looks at:
// the first, middle and last.
func CheckedMatrices(count int) []int {
	switch count {
	case 0:
		return nil
	case 1:
		return []int{0}
	case 2:
		return []int{0, 1}
	}
	return []int{0, count / 2, count - 1}
}

// Dense is a column-major float64 matrix (R rows, C columns, leading
// dimension R), the reference arithmetic of the verifications: independent
// of every kernel, and in higher precision than float32 kernels.
type Dense struct {
	R, C int
	V    []float64
}

// NewDense returns an r x c zero matrix.
func NewDense(r, c int) Dense { return Dense{R: r, C: c, V: make([]float64, r*c)} }

// DenseOf copies matrix i of b.
func DenseOf[T batchlas.Float](b batchlas.Batch[T], i int) Dense {
	return Dense{R: b.Rows, C: b.Cols, V: matgen.Dense(b, i)}
}

// At returns element (i, j).
func (d Dense) At(i, j int) float64 { return d.V[i+j*d.R] }

// Op returns the transpose of d when trans is set, d otherwise.
func (d Dense) Op(trans bool) Dense {
	if !trans {
		return d
	}
	out := Dense{R: d.C, C: d.R, V: make([]float64, len(d.V))}
	for j := 0; j < d.C; j++ {
		for i := 0; i < d.R; i++ {
			out.V[j+i*out.R] = d.V[i+j*d.R]
		}
	}
	return out
}

// WithinBound checks |got - want| <= tol * scale + tiny elementwise, with
// NaN failing (the comparison is written so NaN falls on the failing
// side). The error names the worst element, what is the matrix's name.
func WithinBound(what string, got, want, scale Dense, tol float64) error {
	const tiny = 1e-300
	worst, at := 0.0, -1
	for i := range got.V {
		err := math.Abs(got.V[i] - want.V[i])
		bound := tol*scale.V[i] + tiny
		if !(err <= bound) {
			ratio := err / bound
			if at < 0 || !(ratio <= worst) {
				worst, at = ratio, i
			}
		}
	}
	if at < 0 {
		return nil
	}
	return fmt.Errorf("%s: element (%d,%d) is off by %.3g times the bound (got %g, want %g)",
		what, at%got.R, at/got.R, worst, got.V[at], want.V[at])
}
