package trmm

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gemm"
)

// BenchmarkTrmm times B := L*B (left, lower, no transpose) in GFLOP/s of
// t*t*r per matrix: automatic selection, every candidate pinned, and the
// gemm op multiplying by the full matrix (what a caller would do with a
// dense copy of L), reported against the same count. B is restored from
// a copy before each call, outside the timing: multiplied by L again and
// again it decays (L's diagonal is below 1 in magnitude) into subnormal
// numbers, whose arithmetic is many times slower, and the in-place
// kernels timed 2x slower at order 8 than on the inputs users give.
func BenchmarkTrmm(b *testing.B) {
	b.Run("float64", benchTrmm[float64])
	b.Run("float32", benchTrmm[float32])
}

func benchTrmm[T batchlas.Float](b *testing.B) {
	for _, s := range []struct{ n, count int }{{8, 8192}, {32, 1024}, {128, 32}} {
		r := testmat.Rand(42)
		l := testmat.Batch[T](r, s.n, s.n, s.count, 0, 0)
		x := testmat.Batch[T](r, s.n, s.n, s.count, 0, 0)
		out := batchlas.NewBatch[T](s.n, s.n, s.count)
		flops := flopsPerMatrix(s.n, s.n) * float64(s.count)
		x0 := append([]T(nil), x.Data...)
		run := func(b *testing.B, f func() error) {
			for b.Loop() {
				b.StopTimer()
				copy(x.Data, x0)
				b.StartTimer()
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
		name := fmt.Sprintf("n=%d/batch=%d", s.n, s.count)
		for _, ch := range Op.Candidates(opkit.DTypeOf[T]()) {
			ctx := pin(ch)
			size, err := BufferSize(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, l, x)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]T, size)
			b.Run(name+"/"+ch.String(), func(b *testing.B) {
				run(b, func() error {
					return Trmm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1, l, x, ws)
				})
			})
		}
		b.Run(name+"/gemm", func(b *testing.B) {
			run(b, func() error {
				return gemm.Gemm(context.Background(), batchlas.NoTrans, batchlas.NoTrans, 1, l, x, 0, out, nil)
			})
		})
	}
}
