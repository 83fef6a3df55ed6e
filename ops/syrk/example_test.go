package syrk_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/syrk"
)

// The Gram matrix A*A^T of a 2x3 A, its lower triangle: the upper one is
// left as it was (here zero).
func Example() {
	a := batchlas.NewBatch[float64](2, 3, 1)
	copy(a.Data, []float64{1, 4, 2, 5, 3, 6}) // [1 2 3; 4 5 6], column-major
	c := batchlas.NewBatch[float64](2, 2, 1)
	if err := syrk.Syrk(context.Background(), batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, nil); err != nil {
		panic(err)
	}
	fmt.Println(c.At(0, 0, 0), c.At(0, 1, 0), c.At(0, 1, 1), c.At(0, 0, 1))
	// Output: 14 32 77 0
}
