package getrf

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// benchShapes are the target shapes: many tiny, many small, a few medium.
var benchShapes = []struct{ n, batch int }{{8, 65536}, {32, 8192}, {256, 64}}

// BenchmarkGetrf times float64 factorisations per shape: automatic
// selection, every candidate pinned, and a plain serial loop calling
// gonum's Dgetrf per matrix (what a Go user would write without this
// library, on row-major data: the same matrices read as their transposes,
// the same work). Each iteration refactors a fresh copy of the same batch
// of testmat.General matrices; the copy is not timed.
func BenchmarkGetrf(b *testing.B) {
	for _, s := range benchShapes {
		r := testmat.Rand(42)
		src := batchlas.NewBatch[float64](s.n, s.n, s.batch)
		testmat.General(r, src)
		a := testmat.Clone(src)
		ipiv := batchlas.NewVectors[int32](s.n, s.batch)
		flops := flopsPerMatrix(s.n) * float64(s.batch)
		run := func(b *testing.B, f func() error) {
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				copy(a.Data, src.Data)
				start := time.Now()
				if err := f(); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
			}
			b.ReportMetric(flops*float64(b.N)/elapsed.Seconds()/1e9, "GFLOP/s")
		}
		name := fmt.Sprintf("n=%d/batch=%d", s.n, s.batch)
		b.Run(name+"/auto", func(b *testing.B) {
			run(b, func() error { return Getrf(context.Background(), a, ipiv, nil) })
		})
		for _, c := range Op.Candidates(sel.Float64) {
			if !Op.CanRun(c, makeKey(a), batchlas.Host()) {
				continue
			}
			ctx := pin(c)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Getrf(ctx, a, ipiv, nil) })
			})
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			p := make([]int, s.n)
			run(b, func() error {
				for i := 0; i < a.Count; i++ {
					impl.Dgetrf(a.Rows, a.Rows, a.Data[i*a.Stride:], a.LD, p)
				}
				return nil
			})
		})
	}
}
