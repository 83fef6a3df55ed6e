package testmat

import (
	"math"

	"github.com/batchlas-go/batchlas"
)

// InverseResidual is max |A*X - I| / (max|A| max|X| n eps) over matrix i
// of the square batches a and x: small for an inverse X of A computed
// stably (the solve's residual bound, and xGETRI's for a well-conditioned
// A). Each entry of A*X is summed over k in order, in float64.
func InverseResidual[T batchlas.Float](a, x batchlas.Batch[T], i int) float64 {
	n := a.Rows
	// Both matrices copied once, column-major and tight: the product
	// below goes down columns (reading them through Batch.At in the inner
	// loop was most of the inverse ops' test time).
	ad, xd := make([]float64, n*n), make([]float64, n*n)
	var xmax, amax float64
	for c := range n {
		for row := range n {
			ad[c*n+row] = float64(a.At(i, row, c))
			xd[c*n+row] = float64(x.At(i, row, c))
			xmax = math.Max(xmax, math.Abs(xd[c*n+row]))
			amax = math.Max(amax, math.Abs(ad[c*n+row]))
		}
	}
	var r float64
	s := make([]float64, n)
	for c := range n {
		clear(s)
		for k := range n {
			xkc := xd[c*n+k]
			for row, v := range ad[k*n : k*n+n] {
				s[row] += v * xkc
			}
		}
		s[c]--
		for _, v := range s {
			r = math.Max(r, math.Abs(v))
		}
	}
	return r / (xmax * amax * float64(n) * Eps[T]())
}
