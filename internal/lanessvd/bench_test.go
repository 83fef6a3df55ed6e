package lanessvd

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// BenchmarkSweeps times one float64 group of random normal matrices run
// to convergence, v accumulated from the identity, on each code path
// (AVX-512, AVX2, the Go twin): ns/op is per group of Lanes matrices; avx512-two sweeps
// two copies of the group at once (Sweeps2), ns/op per two groups.
func BenchmarkSweeps(b *testing.B) {
	for _, n := range []int{3, 8, 32} {
		L := Lanes[float64]()
		r := rand.New(rand.NewPCG(11, 12))
		g0, v0 := make([]float64, n*n*L), make([]float64, n*n*L)
		for i := range g0 {
			g0[i] = r.NormFloat64()
		}
		for c := range n {
			for l := range L {
				v0[(c*n+c)*L+l] = 1
			}
		}
		tol, small, big := params[float64](n)
		g, v := make([]float64, len(g0)), make([]float64, len(v0))
		g2 := make([]float64, len(g0))
		v2 := make([]float64, len(v0))
		b.Run(fmt.Sprintf("float64/n=%d/avx512-two", n), func(b *testing.B) {
			if !simd.AVX512 {
				b.Skip("no AVX-512 path on this machine")
			}
			for b.Loop() {
				copy(g, g0)
				copy(v, v0)
				copy(g2, g0)
				copy(v2, v0)
				if r1, r2 := Sweeps2(g, v, g2, v2, n, 60, uint64(1)<<L-1, uint64(1)<<L-1, tol, small, big); r1|r2 != 0 {
					b.Fatal("not converged")
				}
			}
		})
		for _, path := range simdpath.Paths() {
			b.Run(fmt.Sprintf("float64/n=%d/%s", n, path), func(b *testing.B) {
				defer simdpath.Use(path)()
				for b.Loop() {
					copy(g, g0)
					copy(v, v0)
					if Sweeps(g, v, n, 60, uint64(1)<<L-1, tol, small, big) != 0 {
						b.Fatal("not converged")
					}
				}
			})
		}
	}
}
