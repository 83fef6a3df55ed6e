// Command quickstart is the README's program: factor a batch of symmetric
// positive definite matrices and solve one system with each.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

func main() {
	ctx := context.Background()
	const n, count = 3, 4096
	a := batchlas.NewBatch[float64](n, n, count) // 4096 column-major 3x3 matrices
	b := batchlas.NewBatch[float64](n, 1, count) // one right-hand side each
	for i := 0; i < count; i++ {
		for r := 0; r < n; r++ {
			a.Set(i, r, r, 4) // A = 4I + ones: symmetric positive definite
			for c := 0; c < n; c++ {
				a.Set(i, r, c, a.At(i, r, c)+1)
			}
			b.Set(i, r, 0, 7) // A * [1 1 1] = [7 7 7]
		}
	}
	// A = L*L^T in place, then L*(L^T*x) = b: x overwrites b.
	if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil {
		log.Fatal(err)
	}
	for _, t := range []batchlas.Transpose{batchlas.NoTrans, batchlas.Trans} {
		if err := trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, t, batchlas.NonUnit, 1.0, a, b, nil); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("x of the last system: %.6f\n", b.Matrix(count-1))
}
