package posv

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// benchShapes are the target shapes: Gaussian-process batches of small
// kernels with one right-hand side, mid-size ones with a few, and a few
// larger ones with many.
var benchShapes = []struct{ n, nrhs, batch int }{{8, 1, 65536}, {32, 4, 8192}, {128, 32, 64}}

// BenchmarkPosv times float64 Lower factor-and-solves per shape: automatic
// selection, every candidate pinned, and a plain serial loop calling
// gonum's Dpotrf and Dpotrs per matrix with a row-major copy of B (what a
// Go user would write without this library; gonum has no Dposv). Each
// iteration starts from fresh copies of the same inputs; the copies are
// not timed.
func BenchmarkPosv(b *testing.B) {
	for _, s := range benchShapes {
		p := newProblem[float64](testmat.Rand(42), batchlas.Lower, s.n, s.nrhs, s.batch, false)
		a, x := p.clone()
		flops := flopsPerMatrix(s.n, s.nrhs) * float64(s.batch)
		run := func(b *testing.B, f func() error) {
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				copy(a.Data, p.a.Data)
				copy(x.Data, p.b.Data)
				start := time.Now()
				if err := f(); err != nil {
					b.Fatal(err)
				}
				elapsed += time.Since(start)
			}
			b.ReportMetric(flops*float64(b.N)/elapsed.Seconds()/1e9, "GFLOP/s")
		}
		name := fmt.Sprintf("n=%d/nrhs=%d/batch=%d", s.n, s.nrhs, s.batch)
		b.Run(name+"/auto", func(b *testing.B) {
			run(b, func() error { return Posv(context.Background(), batchlas.Lower, a, x, nil) })
		})
		for _, c := range Op.Candidates(sel.Float64) {
			ctx := pin(context.Background(), c)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Posv(ctx, batchlas.Lower, a, x, nil) })
			})
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			t := make([]float64, s.n*s.nrhs)
			run(b, func() error {
				for i := 0; i < a.Count; i++ {
					m := a.Data[i*a.Stride:]
					// Column-major Lower is row-major Upper.
					if !impl.Dpotrf(blas.Upper, s.n, m, a.LD) {
						return fmt.Errorf("matrix %d not SPD", i)
					}
					for c := 0; c < s.nrhs; c++ {
						for r := 0; r < s.n; r++ {
							t[r*s.nrhs+c] = x.At(i, r, c)
						}
					}
					impl.Dpotrs(blas.Upper, s.n, s.nrhs, m, a.LD, t, s.nrhs)
					for c := 0; c < s.nrhs; c++ {
						for r := 0; r < s.n; r++ {
							x.Set(i, r, c, t[r*s.nrhs+c])
						}
					}
				}
				return nil
			})
		})
	}
}
