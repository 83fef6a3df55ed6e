package gonummat_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/gonummat"
	"github.com/batchlas-go/batchlas/ops/gesv"
)

// Solve a batch of systems a program holds as gonum matrices and vectors,
// and read the solutions back as gonum vectors.
func Example() {
	as := []*mat.Dense{
		mat.NewDense(2, 2, []float64{2, 1, 1, 3}),
		mat.NewDense(2, 2, []float64{4, 0, 0, 5}),
	}
	bs := []*mat.VecDense{mat.NewVecDense(2, []float64{3, 4}), mat.NewVecDense(2, []float64{8, 10})}
	a, err := gonummat.FromDense[float64](as)
	if err != nil {
		panic(err)
	}
	b, err := gonummat.FromVecs[float64](bs)
	if err != nil {
		panic(err)
	}
	if err := gesv.Gesv(context.Background(), a, batchlas.NewVectors[int32](2, 2), b, nil); err != nil {
		panic(err)
	}
	xs, err := gonummat.ToVecs(b)
	if err != nil {
		panic(err)
	}
	for _, x := range xs {
		fmt.Println(mat.Formatted(x.T()))
	}
	// Output:
	// [1  1]
	// [2  2]
}
