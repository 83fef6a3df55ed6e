package syrk

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

// BenchmarkSyrk times C := A*A^T (lower, beta 0) in GFLOP/s of n(n+1)k per
// matrix: automatic selection, every candidate pinned, and the gemm op
// computing the full product (the call syrk replaces), reported against
// the same n(n+1)k.
func BenchmarkSyrk(b *testing.B) {
	b.Run("float64", benchSyrk[float64])
	b.Run("float32", benchSyrk[float32])
}

func benchSyrk[T batchlas.Float](b *testing.B) {
	for _, s := range []struct{ n, k, count int }{{8, 8, 8192}, {32, 32, 1024}, {128, 128, 32}} {
		a := testmat.Batch[T](testmat.Rand(42), s.n, s.k, s.count, 0, 0)
		c := batchlas.NewBatch[T](s.n, s.n, s.count)
		flops := flopsPerMatrix(s.n, s.k) * float64(s.count)
		run := func(b *testing.B, f func() error) {
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		name := fmt.Sprintf("n=%d/k=%d/batch=%d", s.n, s.k, s.count)
		b.Run(name+"/auto", func(b *testing.B) {
			run(b, func() error {
				return Syrk(context.Background(), batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, nil)
			})
		})
		for _, ch := range Op.Candidates(opkit.DTypeOf[T]()) {
			ctx := pin(ch)
			size, err := BufferSize(ctx, batchlas.Lower, batchlas.NoTrans, a, c)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]T, size)
			b.Run(name+"/"+ch.String(), func(b *testing.B) {
				run(b, func() error { return Syrk(ctx, batchlas.Lower, batchlas.NoTrans, 1, a, 0, c, ws) })
			})
		}
		b.Run(name+"/gemm", func(b *testing.B) {
			run(b, func() error {
				return gemm.Gemm(context.Background(), batchlas.NoTrans, batchlas.Trans, 1, a, a, 0, c, nil)
			})
		})
	}
}
