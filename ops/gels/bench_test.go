package gels_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gels"
	sel "github.com/batchlas-go/batchlas/select"
)

// BenchmarkGels times the automatic choice and every candidate on issue
// 36's shapes, reporting GFLOP/s (QR, Q^T*B and the triangular solve);
// A and B are restored outside the timer.
func BenchmarkGels(b *testing.B) {
	for _, s := range []struct{ m, n, nrhs, count int }{{64, 8, 1, 20000}, {32, 32, 4, 4096}, {256, 32, 1, 2000}} {
		a0 := testmat.Batch[float64](testmat.Rand(1), s.m, s.n, s.count, 0, 0)
		b0 := testmat.Batch[float64](testmat.Rand(2), s.m, s.nrhs, s.count, 0, 0)
		m, n, k := float64(s.m), float64(s.n), float64(s.nrhs)
		flops := (2*m*n*n - 2*n*n*n/3 + 4*m*n*k - n*n*k) * float64(s.count)
		names := []string{"auto"}
		for _, c := range gels.Op.Candidates(sel.Float64) {
			names = append(names, c.String())
		}
		for _, name := range names {
			b.Run(fmt.Sprintf("m=%d/n=%d/nrhs=%d/batch=%d/%s", s.m, s.n, s.nrhs, s.count, name), func(b *testing.B) {
				ctx := context.Background()
				if name != "auto" {
					ctx = sel.WithPin(ctx, "gels", name)
				}
				a, x := testmat.Clone(a0), testmat.Clone(b0)
				size, err := gels.BufferSize(ctx, a, x)
				if err != nil {
					b.Fatal(err)
				}
				ws := make([]float64, size)
				for b.Loop() {
					b.StopTimer()
					copy(a.Data, a0.Data)
					copy(x.Data, b0.Data)
					b.StartTimer()
					if err := gels.Gels(ctx, a, x, ws); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
