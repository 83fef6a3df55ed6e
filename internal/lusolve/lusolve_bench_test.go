package lusolve

import (
	"fmt"
	"testing"
)

// BenchmarkSolve times the per-matrix solve alone on small orders, one
// right-hand side and four, against a well-conditioned diagonally
// dominant factor with identity pivots.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{2, 4, 8, 16} {
		for _, nrhs := range []int{1, 4} {
			a := make([]float64, n*n)
			for i := range a {
				a[i] = 0.01 * float64(i%7)
			}
			for i := 0; i < n; i++ {
				a[i*n+i] = 2
			}
			piv := make([]int32, n)
			for i := range piv {
				piv[i] = int32(i)
			}
			x := make([]float64, n*nrhs)
			for _, trans := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d,nrhs=%d,trans=%v", n, nrhs, trans), func(b *testing.B) {
					for b.Loop() {
						for i := range x {
							x[i] = 1
						}
						Solve(trans, a, n, n, piv, x, n, nrhs)
					}
				})
			}
		}
	}
}
