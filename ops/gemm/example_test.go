package gemm_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

// Multiply two batches of 2x2 matrices: C_i = A_i * B_i.
func Example() {
	a := batchlas.NewBatch[float64](2, 2, 2)
	b := batchlas.NewBatch[float64](2, 2, 2)
	c := batchlas.NewBatch[float64](2, 2, 2)
	copy(a.Data, []float64{1, 3, 2, 4, 2, 0, 0, 2}) // [1 2; 3 4] and 2*I, column-major
	copy(b.Data, []float64{5, 7, 6, 8, 1, 2, 3, 4}) // [5 6; 7 8] and [1 3; 2 4]
	err := gemm.Gemm(context.Background(), batchlas.NoTrans, batchlas.NoTrans, 1, a, b, 0, c, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range c.Count {
		fmt.Printf("C_%d = [%g %g; %g %g]\n", i, c.At(i, 0, 0), c.At(i, 0, 1), c.At(i, 1, 0), c.At(i, 1, 1))
	}
	// Output:
	// C_0 = [19 22; 43 50]
	// C_1 = [2 6; 4 8]
}
