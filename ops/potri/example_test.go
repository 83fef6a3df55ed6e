package potri_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/potri"
)

// The inverse of the SPD matrix [4 2; 2 3] from its Cholesky factor: the
// lower triangle holds inv(A) = [0.375 -0.25; -0.25 0.5].
func Example() {
	ctx := context.Background()
	a := batchlas.NewBatch[float64](2, 2, 1)
	copy(a.Data, []float64{4, 2, 2, 3})
	if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil {
		panic(err)
	}
	if err := potri.Potri(ctx, batchlas.Lower, a); err != nil {
		panic(err)
	}
	fmt.Printf("%.4f %.4f %.4f\n", a.At(0, 0, 0), a.At(0, 1, 0), a.At(0, 1, 1))
	// Output: 0.3750 -0.2500 0.5000
}
