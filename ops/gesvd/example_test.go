package gesvd_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gesvd"
)

// The singular values and thin vectors of a batch of two 3 x 2 matrices.
func Example() {
	a, _ := batchlas.WrapBatch([]float64{
		3, 0, 0, 0, 4, 0, // matrix 0, column-major: diag(3, 4) over a zero row
		1, 1, 0, 1, 1, 0, // matrix 1: rank one
	}, 3, 2, 2)
	s := batchlas.NewVectors[float64](2, 2)
	u := batchlas.NewBatch[float64](3, 2, 2)
	vt := batchlas.NewBatch[float64](2, 2, 2)
	if err := gesvd.Gesvd(context.Background(), gesvd.ThinVectors, gesvd.ThinVectors, a, s, u, vt, nil); err != nil {
		panic(err)
	}
	for i := range 2 {
		fmt.Printf("s_%d = [%.4f %.4f], first right vector [%.4f %.4f]\n", i, s.At(i, 0), s.At(i, 1), vt.At(i, 0, 0)+0, vt.At(i, 0, 1)+0)
	}
	// Output:
	// s_0 = [4.0000 3.0000], first right vector [0.0000 1.0000]
	// s_1 = [2.0000 0.0000], first right vector [0.7071 0.7071]
}
