package potrf_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
)

// Factor a batch of two 2x2 SPD matrices, A = L*L^T, in place.
func Example() {
	a := batchlas.NewBatch[float64](2, 2, 2)
	for i, m := range [][4]float64{{4, 2, 2, 5}, {9, 3, 3, 5}} { // column-major
		copy(a.Data[i*a.Stride:], m[:])
	}
	if err := potrf.Potrf(context.Background(), batchlas.Lower, a, nil); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < a.Count; i++ {
		fmt.Printf("L%d = [%g 0; %g %g]\n", i, a.At(i, 0, 0), a.At(i, 1, 0), a.At(i, 1, 1))
	}
	// Output:
	// L0 = [2 0; 1 2]
	// L1 = [3 0; 1 2]
}

// A matrix that is not positive definite is reported with LAPACK's info,
// while the rest of the batch is still factored.
func Example_notPositiveDefinite() {
	a := batchlas.NewBatch[float64](2, 2, 3)
	for i, m := range [][4]float64{{4, 2, 2, 5}, {1, 2, 2, 1}, {9, 3, 3, 5}} {
		copy(a.Data[i*a.Stride:], m[:])
	}
	err := potrf.Potrf(context.Background(), batchlas.Lower, a, nil)
	fmt.Println(err)
	fmt.Println(a.At(2, 0, 0), a.At(2, 1, 0), a.At(2, 1, 1))
	// Output:
	// potrf: 1 matrix(es) failed: #1 (info 2)
	// 3 1 2
}
