package poinv

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// BenchmarkPoinv times out-of-place SPD inverses, in GFLOP/s of n^3 per
// matrix, per order and dtype: automatic selection and every candidate
// pinned, X allocated once (as a program reusing its output would).
// linalg.InvSPD adds X's allocation to this.
func BenchmarkPoinv(b *testing.B) {
	b.Run("float64", benchPoinv[float64])
	b.Run("float32", benchPoinv[float32])
}

func benchPoinv[T batchlas.Float](b *testing.B) {
	for _, s := range []struct{ n, count int }{{3, 16384}, {8, 8192}, {32, 512}, {128, 16}} {
		a, _ := spd[T](testmat.Rand(42), batchlas.Lower, s.n, s.count)
		x := batchlas.NewBatch[T](s.n, s.n, s.count)
		flops := flopsPerMatrix(s.n) * float64(s.count)
		run := func(name string, ctx context.Context, ws []T) {
			b.Run(fmt.Sprintf("n=%d/batch=%d/%s", s.n, s.count, name), func(b *testing.B) {
				for b.Loop() {
					if err := Poinv(ctx, batchlas.Lower, a, x, ws); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		run("auto", context.Background(), nil)
		for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
			if !runs(c, s.n) {
				continue // lanes past lanesMax
			}
			ctx := pin(c)
			size, err := BufferSize(ctx, batchlas.Lower, a, x)
			if err != nil {
				b.Fatal(err)
			}
			run(c.String(), ctx, make([]T, size))
		}
	}
}
