// Command quickstart is the README's program: solve a batch of symmetric
// positive definite systems in one call.
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/linalg"
)

func main() {
	const n, count = 3, 4096
	a := batchlas.NewBatch[float64](n, n, count) // 4096 column-major 3x3 matrices
	b := batchlas.NewBatch[float64](n, 1, count) // one right-hand side each
	for i := 0; i < count; i++ {
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				a.Set(i, r, c, 1)
			}
			a.Set(i, r, r, 5) // A = 4I + ones: symmetric positive definite
			b.Set(i, r, 0, 7) // A * [1 1 1] = [7 7 7]
		}
	}
	// Cholesky factor and solve for every system (numpy.linalg.solve, for
	// SPD matrices): a and b are left as they were, x is new.
	x, err := linalg.SolveSPD(context.Background(), a, b)
	if err != nil {
		log.Fatal(err) // a *batchlas.NumericalError names matrices that are not SPD
	}
	fmt.Printf("x of the last system: %.6f\n", x.Matrix(count-1))
}
