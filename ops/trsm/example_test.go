package trsm_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// Solve L*x = b for two 2x2 lower triangles at once.
func ExampleTrsm() {
	a := batchlas.NewBatch[float64](2, 2, 2)
	b := batchlas.NewBatch[float64](2, 1, 2)
	// Column-major: L0 = [2 0; 1 4], L1 = [1 0; 3 1] (the upper entry is
	// never read).
	copy(a.Data, []float64{2, 1, 99, 4, 1, 3, 99, 1})
	copy(b.Data, []float64{2, 9, 1, 5})
	err := trsm.Trsm(context.Background(), batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1.0, a, b, nil)
	fmt.Println(err, b.Data)
	// Output: <nil> [1 2 1 2]
}
