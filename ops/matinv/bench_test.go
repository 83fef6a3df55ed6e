package matinv

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// BenchmarkMatinv times out-of-place inverses, in GFLOP/s of 2n^3 per
// matrix, per order and dtype: automatic selection and every candidate
// pinned, X allocated once (as a program reusing its output would).
// linalg.Inv adds X's allocation to this.
func BenchmarkMatinv(b *testing.B) {
	b.Run("float64", benchMatinv[float64])
	b.Run("float32", benchMatinv[float32])
}

func benchMatinv[T batchlas.Float](b *testing.B) {
	for _, s := range []struct{ n, count int }{{3, 16384}, {8, 8192}, {32, 512}, {128, 16}} {
		a := testmat.Batch[T](testmat.Rand(42), s.n, s.n, s.count, 0, 0)
		for i := range s.count {
			for j := range s.n {
				a.Set(i, j, j, a.At(i, j, j)+T(s.n)) // well conditioned
			}
		}
		x := batchlas.NewBatch[T](s.n, s.n, s.count)
		flops := flopsPerMatrix(s.n) * float64(s.count)
		run := func(name string, ctx context.Context, ws []T) {
			b.Run(fmt.Sprintf("n=%d/batch=%d/%s", s.n, s.count, name), func(b *testing.B) {
				for b.Loop() {
					if err := Matinv(ctx, a, x, ws); err != nil {
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
			size, err := BufferSize(ctx, a, x)
			if err != nil {
				b.Fatal(err)
			}
			run(c.String(), ctx, make([]T, size))
		}
	}
}
