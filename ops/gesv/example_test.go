package gesv_test

import (
	"context"
	"fmt"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gesv"
)

// Static displacements of three chains of three masses joined by springs,
// each under two load cases: K*u = f for each chain. Chains 0 and 1 hang
// from a wall by their first spring, with stiffness k = 1 and k = 2:
// K = k*[2 -1 0; -1 2 -1; 0 -1 1]. Chain 2 is not attached to anything,
// so it can drift as a whole (K*[1 1 1] = 0) and has no static solution:
// gesv reports it, with getrf's info, and leaves its loads as they were.
// Load case 0 pulls the free end with a unit force, load case 1 pulls
// every mass with one. (The displacements are printed to three digits:
// the factorisation divides by 1.5, so they are exact only to rounding.)
func Example() {
	const n, loads, chains = 3, 2, 3
	k := batchlas.NewBatch[float64](n, n, chains)
	for i, m := range [][9]float64{ // column-major
		{2, -1, 0, -1, 2, -1, 0, -1, 1},
		{4, -2, 0, -2, 4, -2, 0, -2, 2},
		{1, -1, 0, -1, 2, -1, 0, -1, 1},
	} {
		copy(k.Data[i*k.Stride:], m[:])
	}
	f := batchlas.NewBatch[float64](n, loads, chains)
	for i := 0; i < chains; i++ {
		copy(f.Data[i*f.Stride:], []float64{0, 0, 1, 1, 1, 1})
	}
	ipiv := batchlas.NewVectors[int32](n, chains)
	err := gesv.Gesv(context.Background(), k, ipiv, f, nil)
	fmt.Println(err)
	for i := 0; i < chains; i++ {
		fmt.Printf("chain %d: u0 = %.3g, u1 = %.3g\n", i, f.Data[i*f.Stride:i*f.Stride+n], f.Data[i*f.Stride+n:i*f.Stride+2*n])
	}
	// Output:
	// gesv: 1 matrix(es) failed: #2 (info 3)
	// chain 0: u0 = [1 2 3], u1 = [3 5 6]
	// chain 1: u0 = [0.5 1 1.5], u1 = [1.5 2.5 3]
	// chain 2: u0 = [0 0 1], u1 = [1 1 1]
}
