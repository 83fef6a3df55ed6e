package getrf_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrf"
)

// Factor a batch of two 2x2 matrices, A = P*L*U, in place. The first
// needs an interchange: its largest entry in column 0 is in row 1.
func Example() {
	a := batchlas.NewBatch[float64](2, 2, 2)
	for i, m := range [][4]float64{{1, 4, 2, 6}, {4, 2, 2, 3}} { // column-major
		copy(a.Data[i*a.Stride:], m[:])
	}
	ipiv := batchlas.NewVectors[int32](2, 2)
	if err := getrf.Getrf(context.Background(), a, ipiv, nil); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < a.Count; i++ {
		fmt.Printf("ipiv=%v L=[1 0; %g 1] U=[%g %g; 0 %g]\n",
			ipiv.Vector(i), a.At(i, 1, 0), a.At(i, 0, 0), a.At(i, 0, 1), a.At(i, 1, 1))
	}
	// Output:
	// ipiv=[1 1] L=[1 0; 0.25 1] U=[4 6; 0 0.5]
	// ipiv=[0 1] L=[1 0; 0.5 1] U=[4 2; 0 2]
}

// A singular matrix is reported with LAPACK's info (the first zero pivot,
// 1-based) while the rest of the batch is still factored.
func Example_singular() {
	a := batchlas.NewBatch[float64](2, 2, 2)
	for i, m := range [][4]float64{{1, 2, 2, 4}, {4, 2, 2, 3}} { // the first has rank 1
		copy(a.Data[i*a.Stride:], m[:])
	}
	ipiv := batchlas.NewVectors[int32](2, 2)
	err := getrf.Getrf(context.Background(), a, ipiv, nil)
	fmt.Println(err)
	fmt.Println(a.At(1, 0, 0), a.At(1, 1, 0), a.At(1, 0, 1), a.At(1, 1, 1))
	// Output:
	// getrf: 1 matrix(es) failed: #0 (info 2)
	// 4 0.5 2 2
}
