package geqrf_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/geqrf"
)

// Factor a batch of two 3 x 2 matrices: R in the upper triangle, the
// reflectors below it, their factors in tau.
func Example() {
	a, _ := batchlas.WrapBatch([]float64{
		3, 4, 0, 1, 1, 1, // matrix 0, column-major
		1, 0, 0, 0, 2, 0, // matrix 1
	}, 3, 2, 2)
	tau := batchlas.NewVectors[float64](2, 2)
	if err := geqrf.Geqrf(context.Background(), a, tau, nil); err != nil {
		panic(err)
	}
	for i := 0; i < 2; i++ {
		fmt.Printf("R_%d = [%.4g %.4g; 0 %.4g]\n", i, a.At(i, 0, 0), a.At(i, 0, 1), a.At(i, 1, 1))
	}
	// Output:
	// R_0 = [-5 -1.4; 0 1.02]
	// R_1 = [1 0; 0 2]
}
