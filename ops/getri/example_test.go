package getri_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrf"
	"github.com/batchlas-go/batchlas/ops/getri"
)

// Two 2x2 matrices factored by getrf, then inverted in place.
func Example() {
	ctx := context.Background()
	a := batchlas.NewBatch[float64](2, 2, 2)
	copy(a.Data, []float64{
		4, 2, 7, 6, // column-major [4 7; 2 6]
		1, 3, 2, 4, // [1 2; 3 4]
	})
	ipiv := batchlas.NewVectors[int32](2, a.Count)
	if err := getrf.Getrf(ctx, a, ipiv, nil); err != nil {
		panic(err)
	}
	if err := getri.Getri(ctx, a, ipiv, nil); err != nil {
		panic(err)
	}
	for i := range a.Count {
		fmt.Printf("[%.1f %.1f; %.1f %.1f]\n", a.At(i, 0, 0), a.At(i, 0, 1), a.At(i, 1, 0), a.At(i, 1, 1))
	}
	// Output:
	// [0.6 -0.7; -0.2 0.4]
	// [-2.0 1.0; 1.5 -0.5]
}
