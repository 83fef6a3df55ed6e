package gesv_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

// BenchmarkGesv times float64 systems on a few shapes: automatic
// selection, every pinned candidate, and a serial loop calling gonum's
// Dgesv per matrix on row-major data. Every call starts from fresh copies
// of A and B (restored outside the timing, as the factorisation
// overwrites A). GFLOP/s counts 2n^3/3 + 2n^2*nrhs flops per system.
func BenchmarkGesv(b *testing.B) {
	shapes := []struct{ n, nrhs, batch int }{{4, 1, 16384}, {8, 2, 8192}, {32, 4, 1024}, {128, 8, 16}}
	for _, s := range shapes {
		a0, ipiv, b0 := system[float64](1, s.n, s.nrhs, s.batch, false)
		n := float64(s.n)
		flops := (2*n*n*n/3 + 2*n*n*float64(s.nrhs)) * float64(s.batch)
		name := fmt.Sprintf("n=%d,nrhs=%d,batch=%d", s.n, s.nrhs, s.batch)
		timed := func(b *testing.B, restore, call func()) {
			var spent time.Duration
			for b.Loop() {
				restore()
				t0 := time.Now()
				call()
				spent += time.Since(t0)
			}
			b.ReportMetric(flops*float64(b.N)/spent.Seconds()/1e9, "GFLOP/s")
		}
		run := func(b *testing.B, ctx context.Context) {
			size, err := gesv.BufferSize(ctx, a0, ipiv, b0)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]float64, size)
			a, x := batchlas.NewBatch[float64](s.n, s.n, s.batch), batchlas.NewBatch[float64](s.n, s.nrhs, s.batch)
			timed(b, func() { copy(a.Data, a0.Data); copy(x.Data, b0.Data) }, func() {
				if err := gesv.Gesv(ctx, a, ipiv, x, ws); err != nil {
					b.Fatal(err)
				}
			})
		}
		b.Run(name+"/auto", func(b *testing.B) { run(b, context.Background()) })
		for _, c := range gesv.Op.Candidates(sel.Float64) {
			b.Run(name+"/"+c.String(), func(b *testing.B) { run(b, pin(context.Background(), c)) })
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			// Row-major copies of A and B, made once; the loop restores
			// them outside the timing.
			am0 := make([]float64, s.n*s.n*s.batch)
			x0 := make([]float64, s.n*s.nrhs*s.batch)
			for i := 0; i < s.batch; i++ {
				for r := 0; r < s.n; r++ {
					for c := 0; c < s.n; c++ {
						am0[i*s.n*s.n+r*s.n+c] = a0.At(i, r, c)
					}
					for c := 0; c < s.nrhs; c++ {
						x0[i*s.n*s.nrhs+r*s.nrhs+c] = b0.At(i, r, c)
					}
				}
			}
			am, x := make([]float64, len(am0)), make([]float64, len(x0))
			piv := make([]int, s.n)
			impl := gonum.Implementation{}
			timed(b, func() { copy(am, am0); copy(x, x0) }, func() {
				for i := 0; i < s.batch; i++ {
					impl.Dgesv(s.n, s.nrhs, am[i*s.n*s.n:(i+1)*s.n*s.n], s.n, piv, x[i*s.n*s.nrhs:(i+1)*s.n*s.nrhs], s.nrhs)
				}
			})
		})
	}
}
