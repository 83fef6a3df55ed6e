package gemm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// benchShapes are square NN problems: tiny matrices in huge batches to
// medium matrices in modest ones.
var benchShapes = []struct{ n, batch int }{
	{4, 65536}, {7, 65536}, {8, 65536}, {16, 16384}, {32, 4096}, {64, 2048}, {128, 256}, {256, 32},
}

// BenchmarkGemm times float64 C = A*B + C: "auto" (automatic selection),
// one sub-benchmark per pinned candidate, and "gonumloop", a plain serial
// loop calling gonum Dgemm per matrix on the same data.
func BenchmarkGemm(b *testing.B) {
	for _, s := range benchShapes {
		b.Run(fmt.Sprintf("n=%d/batch=%d", s.n, s.batch), func(b *testing.B) {
			benchShape(b, s.n, s.batch)
		})
	}
}

func benchShape(b *testing.B, n, batch int) {
	r := testmat.Rand(7)
	a := testmat.Batch[float64](r, n, n, batch, 0, 0)
	bb := testmat.Batch[float64](r, n, n, batch, 0, 0)
	c := testmat.Batch[float64](r, n, n, batch, 0, 0)
	flops := 2 * float64(n) * float64(n) * float64(n) * float64(batch)
	report := func(b *testing.B, start time.Time) {
		b.ReportMetric(flops*float64(b.N)/time.Since(start).Seconds()/1e9, "GFLOP/s")
	}
	run := func(name string, ctx context.Context) {
		b.Run(name, func(b *testing.B) {
			ws, err := BufferSize(ctx, batchlas.NoTrans, batchlas.NoTrans, a, bb, c)
			if err != nil {
				b.Skip(err)
			}
			w := make([]float64, ws)
			b.ResetTimer()
			start := time.Now()
			for range b.N {
				if err := Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, bb, 1, c, w); err != nil {
					b.Fatal(err)
				}
			}
			report(b, start)
		})
	}
	run("auto", context.Background())
	for _, ch := range Op.Candidates(sel.Float64) {
		run(ch.String(), sel.WithPin(context.Background(), opName, ch.String()))
	}
	b.Run("gonumloop", func(b *testing.B) {
		var impl gonum.Implementation
		start := time.Now()
		for range b.N {
			for i := range batch {
				// Row-major view of column-major data: C^T = B^T A^T.
				impl.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1,
					bb.Data[i*bb.Stride:][:n*n], n, a.Data[i*a.Stride:][:n*n], n, 1, c.Data[i*c.Stride:][:n*n], n)
			}
		}
		report(b, start)
	})
}
