package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
)

// BenchmarkJacobi times one group of random symmetric matrices to
// convergence, with vectors and values only, per order and element type,
// and reports the sweeps made.
func BenchmarkJacobi(b *testing.B) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, novec := range []bool{false, true} {
			b.Run(fmt.Sprintf("float64/n=%d/values=%v", n, novec), func(b *testing.B) { benchJacobi[float64](b, n, novec) })
			b.Run(fmt.Sprintf("float32/n=%d/values=%v", n, novec), func(b *testing.B) { benchJacobi[float32](b, n, novec) })
		}
	}
}

func benchJacobi[T batchlas.Float](b *testing.B, n int, novec bool) {
	r := rand.New(rand.NewPCG(7, 8))
	L := Lanes[T]()
	a0 := make([]T, n*n*L)
	for c := 0; c < n; c++ {
		for row := 0; row <= c; row++ {
			for l := 0; l < L; l++ {
				x := T(r.NormFloat64())
				a0[(c*n+row)*L+l], a0[(row*n+c)*L+l] = x, x
			}
		}
	}
	a, v := make([]T, len(a0)), make([]T, len(a0))
	sweeps := 0
	for i := 0; i < b.N; i++ {
		copy(a, a0)
		clear(v)
		for j := 0; j < n; j++ {
			for l := 0; l < L; l++ {
				v[(j*n+j)*L+l] = 1
			}
		}
		vv := v
		if novec {
			vv = nil
		}
		_, made := run(simd.AVX512, a, vv, n, n, 30)
		sweeps += made
	}
	b.ReportMetric(float64(sweeps)/float64(b.N), "sweeps")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(L), "ns/matrix")
}
