package gecon_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gecon"
	"github.com/batchlas-go/batchlas/ops/getrf"
	sel "github.com/batchlas-go/batchlas/select"
)

// BenchmarkGecon times the estimate alone, per candidate, on the factors
// of well-conditioned matrices, reporting matrices per second (ns/op is
// one call on the whole batch).
func BenchmarkGecon(b *testing.B) {
	for _, s := range []struct{ n, count int }{{4, 16384}, {16, 4096}, {64, 256}, {256, 16}} {
		r := testmat.Rand(1)
		var ms [][]float64
		for range s.count {
			ms = append(ms, testmat.WithCond(r, s.n, 100))
			if len(ms) == 8 {
				break
			}
		}
		for len(ms) < s.count {
			ms = append(ms, ms[len(ms)%8])
		}
		a := testmat.BatchOf[float64](ms, s.n)
		anorm, rcond := make([]float64, s.count), make([]float64, s.count)
		_ = gecon.Norm(nil, batchlas.OneNorm, a, anorm)
		_ = getrf.Getrf(nil, a, batchlas.NewVectors[int32](s.n, s.count), nil)
		for _, c := range gecon.Op.Candidates(sel.Float64) {
			b.Run(fmt.Sprintf("n=%d/batch=%d/%s", s.n, s.count, c), func(b *testing.B) {
				ctx := sel.WithPin(context.Background(), "gecon", c.String())
				size, _ := gecon.BufferSize(ctx, batchlas.OneNorm, a, anorm, rcond)
				ws := make([]float64, size)
				for b.Loop() {
					if err := gecon.Gecon(ctx, batchlas.OneNorm, a, anorm, rcond, ws); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(s.count)*float64(b.N)/b.Elapsed().Seconds(), "matrices/s")
			})
		}
	}
}
