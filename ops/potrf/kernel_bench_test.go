package potrf

import (
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// BenchmarkLowerKernel times the per-matrix kernels on one core, outside
// the driver (no batch loop, no workers), so kernel changes show without
// scheduling noise. Each iteration restores one SPD matrix (a copy of
// n*n elements, small next to the n^3/3 flops) and factors it.
func BenchmarkLowerKernel(b *testing.B) {
	benchKernels[float64](b, "f64")
	benchKernels[float32](b, "f32")
}

func benchKernels[T batchlas.Float](b *testing.B, dt string) {
	kernels := []struct {
		name string
		f    func(m []T, n int) int
	}{
		{"unblocked", func(m []T, n int) int { return lowerPanel(m, n, 0, n, n) }},
		{"lpanel32", func(m []T, n int) int { return lpanelLower(m, n, n, 32) }},
		// The column-pair kernel lowerPanel ran before the 4-column blocks.
		{"pairs", func(m []T, n int) int { return lowerPanel2(m, n, 0, n, n) }},
	}
	for _, n := range []int{16, 24, 32, 48, 64, 256} {
		src := batchFor[T](testmat.Rand(7), n, 1, false)
		m := make([]T, n*n)
		for _, k := range kernels {
			b.Run(fmt.Sprintf("%s/n=%d/%s", dt, n, k.name), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					copy(m, src.Data)
					if f := k.f(m, n); f != 0 {
						b.Fatalf("info %d", f)
					}
				}
				b.ReportMetric(flopsPerMatrix(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
