package testmat

import (
	"math"
	"math/rand/v2"

	"github.com/batchlas-go/batchlas"
)

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
