package syev

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// benchShapes are the target shapes: many tiny, many small, a few medium,
// one large.
var benchShapes = []struct{ n, batch int }{{4, 100000}, {8, 65536}, {16, 16384}, {32, 4096}, {64, 512}, {128, 64}, {200, 16}, {512, 1}}

// BenchmarkSyev times float64 Lower eigendecompositions with vectors per
// shape: automatic selection, every candidate pinned, and a plain serial
// loop calling gonum's Dsyev per matrix (what a Go user would write
// without this library). Each iteration starts from a fresh copy of the
// same random symmetric batch; the copy is not timed.
func BenchmarkSyev(b *testing.B) {
	for _, s := range benchShapes {
		p := newProblem[float64](testmat.Rand(42), WithVectors, batchlas.Lower, s.n, s.batch, kindRandom, false)
		a, w := p.clone()
		flops := flopsPerMatrix(s.n, WithVectors) * float64(s.batch)
		run := func(b *testing.B, f func() error) {
			var elapsed time.Duration
			for i := 0; i < b.N; i++ {
				copy(a.Data, p.full.Data)
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
			run(b, func() error { return Syev(context.Background(), WithVectors, batchlas.Lower, a, w, nil) })
		})
		for _, c := range Op.Candidates(sel.Float64) {
			if !runs(c, WithVectors, batchlas.Lower, s.n, s.batch) {
				continue
			}
			ctx := pin(context.Background(), c)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Syev(ctx, WithVectors, batchlas.Lower, a, w, nil) })
			})
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			work := make([]float64, 1)
			impl.Dsyev(lapack.EVCompute, blas.Upper, s.n, a.Data, s.n, w.Data, work, -1)
			work = make([]float64, int(work[0]))
			run(b, func() error {
				for i := 0; i < a.Count; i++ {
					impl.Dsyev(lapack.EVCompute, blas.Upper, s.n, a.Data[i*a.Stride:], a.LD, w.Data[i*w.Stride:], work, len(work))
				}
				return nil
			})
		})
	}
}
