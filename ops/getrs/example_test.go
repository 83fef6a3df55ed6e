package getrs_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrs"
)

// Solve A*x = b for three right-hand sides with one factored 2x2 matrix,
// broadcast to all three: A = [0 2; 1 1] was factored by getrf as
// P*L*U with rows 0 and 1 interchanged (ipiv = [1 1]), L = [1 0; 0 1],
// U = [1 1; 0 2].
func ExampleGetrs() {
	lu := batchlas.NewBatch[float64](2, 2, 1)
	copy(lu.Data, []float64{1, 0, 1, 2}) // column-major: L below, U on and above the diagonal
	ipiv := batchlas.NewVectors[int32](2, 1)
	copy(ipiv.Data, []int32{1, 1})
	b := batchlas.NewBatch[float64](2, 1, 3)
	copy(b.Data, []float64{2, 2, 4, 3, 0, 1}) // b_i = A*x_i for x = (1,1), (1,2), (1,0)
	err := getrs.Getrs(context.Background(), batchlas.NoTrans,
		batchlas.Broadcast(lu, 3), batchlas.BroadcastVectors(ipiv, 3), b, nil)
	fmt.Println(err, b.Data)
	// Output: <nil> [1 1 1 2 1 0]
}
