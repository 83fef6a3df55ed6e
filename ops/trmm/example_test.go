package trmm_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/trmm"
)

// L*x for a lower triangular L: only L's lower triangle is read (the 9
// above it is never used).
func Example() {
	l := batchlas.NewBatch[float64](2, 2, 1)
	copy(l.Data, []float64{2, 3, 9, 4}) // [2 .; 3 4], column-major
	x := batchlas.NewBatch[float64](2, 1, 1)
	copy(x.Data, []float64{1, 1})
	if err := trmm.Trmm(context.Background(), batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, l, x, nil); err != nil {
		panic(err)
	}
	fmt.Println(x.At(0, 0, 0), x.At(0, 1, 0))
	// Output: 2 7
}
