package batchlas_test

import (
	"context"
	"fmt"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gemm"
	"github.com/batchlas-go/batchlas/ops/potrf"
	"github.com/batchlas-go/batchlas/ops/trsm"
)

// Factor a batch of symmetric positive definite matrices and solve one
// linear system with each: A_i = L_i*L_i^T (potrf), then L_i*y = b_i and
// L_i^T*x = y (two trsm calls), all in place.
func Example() {
	const n, count = 64, 256
	ctx := context.Background()

	a := batchlas.NewBatch[float64](n, n, count) // 256 matrices of 64x64
	for i := range count {
		for c := range n {
			for r := range n {
				// Symmetric and diagonally dominant, so positive definite.
				v := 1 / (1 + math.Abs(float64(r-c)) + float64(i%7))
				if r == c {
					v += n
				}
				a.Set(i, r, c, v)
			}
		}
	}
	// b_i = A_i*x for x = (1, 2, ..., n), so the answer is known: one x,
	// broadcast to every matrix of the batch.
	x := batchlas.NewBatch[float64](n, 1, 1)
	for r := range n {
		x.Set(0, r, 0, float64(r+1))
	}
	b := batchlas.NewBatch[float64](n, 1, count)
	if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, batchlas.Broadcast(x, count), 0, b, nil); err != nil {
		fmt.Println(err)
		return
	}

	// nil workspaces: each call allocates what its kernel needs.
	if err := potrf.Potrf(ctx, batchlas.Lower, a, nil); err != nil {
		fmt.Println(err) // a *batchlas.NumericalError lists matrices that are not SPD
		return
	}
	if err := trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, a, b, nil); err != nil {
		fmt.Println(err)
		return
	}
	if err := trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.Trans, batchlas.NonUnit, 1, a, b, nil); err != nil {
		fmt.Println(err)
		return
	}

	worst := 0.0
	for i := range count {
		for r := range n {
			worst = max(worst, math.Abs(b.At(i, r, 0)-x.At(0, r, 0)))
		}
	}
	fmt.Printf("solved %d systems of order %d; largest error below 1e-10: %v\n", count, n, worst < 1e-10)
	// Output: solved 256 systems of order 64; largest error below 1e-10: true
}
