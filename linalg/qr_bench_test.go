package linalg

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas/internal/testmat"
)

// BenchmarkQR times the one-call QR (geqrf, then orgqr, with the outputs
// allocated and R copied out) at issue 36's composite shapes, in
// matrices per second; `tune peers --op qr` compares it with numpy.
func BenchmarkQR(b *testing.B) {
	for _, s := range []struct{ m, n, count int }{{8, 8, 65536}, {32, 32, 4096}} {
		a := testmat.Batch[float64](testmat.Rand(1), s.m, s.n, s.count, 0, 0)
		b.Run(fmt.Sprintf("m=%d/n=%d/batch=%d", s.m, s.n, s.count), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := QR(context.Background(), a); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
		})
	}
}
