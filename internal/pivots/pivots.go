package pivots

import (
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// Check returns an *ArgError of op naming ipiv, the matrix and the
// position of the first pivot outside [j, n) among the first n entries of
// the count vectors of ipiv (pivot j must name row j or a row below it,
// as getrf writes them), or nil. A broadcast (Stride 0) is checked once.
func Check(op string, ipiv batchlas.Vectors[int32], n, count int) error {
	stored := count
	if ipiv.Stride == 0 {
		stored = min(count, 1)
	}
	for i := range stored {
		v := ipiv.Data[i*ipiv.Stride : i*ipiv.Stride+n]
		for j, p := range v {
			if int(p) < j || int(p) >= n {
				whose := fmt.Sprintf("matrix %d", i)
				if ipiv.Stride == 0 && count > 1 {
					whose = "every matrix (ipiv is a broadcast)"
				}
				return opkit.Argf(op, "ipiv", "ipiv.At(%d, %d) = %d: pivot %d of %s must be in [%d, %d) (row %d is interchanged with itself or a row below it, as getrf writes them)", i, j, p, j, whose, j, n, j)
			}
		}
	}
	return nil
}

// Of is the first n entries of pivot vector i of ipiv (vector 0 of a
// broadcast, whose Stride is 0).
func Of(ipiv batchlas.Vectors[int32], i, n int) []int32 {
	o := i * ipiv.Stride
	return ipiv.Data[o : o+n : o+n]
}
