package potrf

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

// benchShapes are the target shapes: many tiny, many small, a few medium.
var benchShapes = []struct{ n, batch int }{{8, 65536}, {32, 8192}, {256, 64}}

// BenchmarkPotrf times float64 Lower factorisations per shape: automatic
// selection, every candidate pinned, and a plain serial loop calling gonum
// per matrix (what a Go user would write without this library). Each
// iteration refactors a fresh copy of the same SPD batch; the copy is not
// timed.
func BenchmarkPotrf(b *testing.B) {
	for _, s := range benchShapes {
		r := testmat.Rand(42)
		src := batchFor[float64](r, s.n, s.batch, false)
		a := testmat.Clone(src)
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
			run(b, func() error { return Potrf(context.Background(), batchlas.Lower, a, nil) })
		})
		for _, c := range Op.Candidates(sel.Float64) {
			if !Op.CanRun(c, makeKey(batchlas.Lower, a), batchlas.Host()) {
				continue
			}
			ctx := pin(c)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Potrf(ctx, batchlas.Lower, a, nil) })
			})
		}
		// blocked's batch-wide path (nested trsm and gemm), which the host's
		// L2 would otherwise reserve for matrices larger than the cache.
		nested := batchlas.WithDevice(pin(blockedFamily.With()), smallCache())
		b.Run(name+"/blocked-nested", func(b *testing.B) {
			run(b, func() error { return Potrf(nested, batchlas.Lower, a, nil) })
		})
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			run(b, func() error {
				for i := 0; i < a.Count; i++ {
					// Column-major Lower is row-major Upper.
					if !impl.Dpotrf(blas.Upper, a.Rows, a.Data[i*a.Stride:], a.LD) {
						return fmt.Errorf("matrix %d not SPD", i)
					}
				}
				return nil
			})
		})
	}
}

// BenchmarkPotrfVsGonum interleaves the automatic choice and the plain
// gonum loop iteration by iteration on the same data, so a busy machine
// slows both alike, and reports both rates and their ratio (x-gonumloop:
// how many times faster the automatic choice is).
func BenchmarkPotrfVsGonum(b *testing.B) {
	for _, s := range benchShapes {
		r := testmat.Rand(42)
		src := batchFor[float64](r, s.n, s.batch, false)
		a := testmat.Clone(src)
		flops := flopsPerMatrix(s.n) * float64(s.batch)
		impl := gonum.Implementation{}
		b.Run(fmt.Sprintf("n=%d/batch=%d", s.n, s.batch), func(b *testing.B) {
			var auto, loop time.Duration
			for i := 0; i < b.N; i++ {
				copy(a.Data, src.Data)
				start := time.Now()
				if err := Potrf(context.Background(), batchlas.Lower, a, nil); err != nil {
					b.Fatal(err)
				}
				auto += time.Since(start)
				copy(a.Data, src.Data)
				start = time.Now()
				for j := 0; j < a.Count; j++ {
					if !impl.Dpotrf(blas.Upper, a.Rows, a.Data[j*a.Stride:], a.LD) {
						b.Fatalf("matrix %d not SPD", j)
					}
				}
				loop += time.Since(start)
			}
			b.ReportMetric(flops*float64(b.N)/auto.Seconds()/1e9, "auto-GFLOP/s")
			b.ReportMetric(flops*float64(b.N)/loop.Seconds()/1e9, "gonumloop-GFLOP/s")
			b.ReportMetric(loop.Seconds()/auto.Seconds(), "x-gonumloop")
		})
	}
}
