// Command factorsolve is the user's guide's first program: it factors a
// batch of covariance matrices with Cholesky and solves each for several
// right-hand sides (package linalg), then checks the answer with a
// batched multiply (the gemm op).
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/linalg"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

func main() {
	const (
		n     = 32   // order of each matrix
		nrhs  = 4    // right-hand sides per system
		count = 1000 // matrices in the batch
	)
	ctx := context.Background()

	// A batch is Count column-major matrices in one slice: element (r, c)
	// of matrix i is at Data[i*Stride + c*LD + r].
	a := batchlas.NewBatch[float64](n, n, count)
	b := batchlas.NewBatch[float64](n, nrhs, count)
	for i := 0; i < count; i++ {
		// A squared-exponential covariance of n points, plus noise on the
		// diagonal: symmetric positive definite.
		x := func(p int) float64 { return float64(p) / n * (1 + float64(i%7)) }
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				d := x(r) - x(c)
				a.Set(i, r, c, math.Exp(-d*d/2))
			}
			a.Set(i, c, c, a.At(i, c, c)+0.1)
		}
		for c := 0; c < nrhs; c++ {
			for r := 0; r < n; r++ {
				b.Set(i, r, c, math.Sin(float64(r+c+i)))
			}
		}
	}
	// A = L*L^T for every matrix, reading its lower triangle: l is new,
	// a is left as it was.
	l, err := linalg.Cholesky(ctx, a)
	if err != nil {
		var nerr *batchlas.NumericalError
		if errors.As(err, &nerr) {
			// Every other matrix was factored; nerr.Index lists the
			// ones that are not positive definite (their L is NaN).
			log.Fatalf("%d matrices are not positive definite: %v", len(nerr.Index), err)
		}
		log.Fatal(err)
	}
	// Solve L*L^T*X = B: x is new, b is left as it was.
	x, err := linalg.CholeskySolve(ctx, l, b)
	if err != nil {
		log.Fatal(err)
	}

	// Check: R = A*X - B should be tiny next to B. gemm is a LAPACK-level
	// op: it overwrites its last batch (here a copy of B) in place.
	res := batchlas.NewBatch[float64](n, nrhs, count)
	copy(res.Data, b.Data)
	if err := gemm.Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1.0, a, x, -1.0, res, nil); err != nil {
		log.Fatal(err)
	}
	worst := 0.0
	for _, v := range res.Data {
		worst = math.Max(worst, math.Abs(v))
	}
	fmt.Printf("solved %d systems of order %d with %d right-hand sides\n", count, n, nrhs)
	fmt.Printf("largest residual below 1e-8: %v\n", worst < 1e-8)
}
