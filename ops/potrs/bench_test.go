package potrs

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

// benchShapes are the target shapes: a Gaussian-process posterior mean
// (one right-hand side) on many small kernels, a few right-hand sides on
// mid-size ones, and many right-hand sides on a few larger ones.
var benchShapes = []struct{ n, nrhs, batch int }{{8, 1, 65536}, {32, 4, 8192}, {128, 32, 64}}

// BenchmarkPotrs times float64 Lower solves per shape: automatic
// selection, every candidate pinned, and a plain serial loop calling
// gonum's Dpotrs per matrix on a row-major copy of B (what a Go user would
// write without this library; the copies are timed, as they are part of
// that code). Each iteration solves a fresh copy of the same right-hand
// sides; the copy is not timed.
func BenchmarkPotrs(b *testing.B) {
	for _, s := range benchShapes {
		sys := newSystem[float64](testmat.Rand(42), batchlas.Lower, s.n, s.nrhs, s.batch, false)
		x := testmat.Clone(sys.b)
		flops := flopsPerMatrix(s.n, s.nrhs) * float64(s.batch)
		run := func(b *testing.B, f func() error) {
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				copy(x.Data, sys.b.Data)
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
			run(b, func() error { return Potrs(context.Background(), batchlas.Lower, sys.a, x, nil) })
		})
		for _, c := range Op.Candidates(sel.Float64) {
			ctx := pin(context.Background(), c)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Potrs(ctx, batchlas.Lower, sys.a, x, nil) })
			})
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			t := make([]float64, s.n*s.nrhs)
			run(b, func() error {
				for i := 0; i < x.Count; i++ {
					for c := 0; c < s.nrhs; c++ {
						for r := 0; r < s.n; r++ {
							t[r*s.nrhs+c] = x.At(i, r, c)
						}
					}
					// Column-major Lower is row-major Upper.
					impl.Dpotrs(blas.Upper, s.n, s.nrhs, sys.a.Data[i*sys.a.Stride:], sys.a.LD, t, s.nrhs)
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
