package potrs_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potrs"
)

// Factor two 2x2 SPD matrices once with potrf, then solve A*x = b for
// each with potrs; the factor can be reused for further right-hand sides.
func Example() {
	ctx := context.Background()
	a := batchlas.NewBatch[float64](2, 2, 2)
	for i, m := range [][4]float64{{4, 2, 2, 5}, {9, 3, 3, 5}} { // column-major
		copy(a.Data[i*a.Stride:], m[:])
	}
	if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil {
		fmt.Println(err)
		return
	}
	// b_i = A_i * [1; 2], so x_i = [1; 2].
	b := batchlas.NewBatch[float64](2, 1, 2)
	copy(b.Data, []float64{8, 12, 15, 13})
	if err := potrs.Potrs(ctx, batchlas.Lower, a, b, nil); err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < b.Count; i++ {
		fmt.Printf("x%d = [%.4g; %.4g]\n", i, b.At(i, 0, 0), b.At(i, 1, 0))
	}
	// Output:
	// x0 = [1; 2]
	// x1 = [1; 2]
}
