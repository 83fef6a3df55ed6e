package getri

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrf"
)

// BenchmarkGetri times inverses from factors, in GFLOP/s of 4n^3/3 per
// matrix, per order and dtype: automatic selection and every candidate
// pinned, each call on a fresh copy of the factors (the copy is not
// timed).
func BenchmarkGetri(b *testing.B) {
	b.Run("float64", benchGetri[float64])
	b.Run("float32", benchGetri[float32])
}

func benchGetri[T batchlas.Float](b *testing.B) {
	for _, s := range []struct{ n, count int }{{3, 16384}, {8, 8192}, {32, 512}, {128, 16}} {
		a := testmat.Batch[T](testmat.Rand(42), s.n, s.n, s.count, 0, 0)
		for i := range s.count {
			for j := range s.n {
				a.Set(i, j, j, a.At(i, j, j)+T(s.n)) // well conditioned
			}
		}
		ipiv := batchlas.NewVectors[int32](s.n, s.count)
		if err := getrf.Getrf(context.Background(), a, ipiv, nil); err != nil {
			b.Fatal(err)
		}
		work := testmat.Clone(a)
		flops := flopsPerMatrix(s.n) * float64(s.count)
		for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
			if !runs(c, s.n) {
				continue // lanes past lanesMax
			}
			ctx := pin(c)
			size, err := BufferSize(ctx, a, ipiv)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]T, size)
			b.Run(fmt.Sprintf("n=%d/batch=%d/%s", s.n, s.count, c), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					copy(work.Data, a.Data)
					b.StartTimer()
					if err := Getri(ctx, work, ipiv, ws); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
