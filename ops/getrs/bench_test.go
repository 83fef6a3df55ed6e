package getrs_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

// BenchmarkGetrs times NoTrans float64 solves on a few shapes: automatic
// selection, every pinned candidate, and a serial loop calling gonum's
// Dgetrs per matrix on row-major copies made once (the plain alternative
// for a Go user whose factors came from gonum's Dgetrf). GFLOP/s counts
// 2*n*n*nrhs flops per matrix.
func BenchmarkGetrs(b *testing.B) {
	shapes := []struct{ n, nrhs, batch int }{{4, 1, 65536}, {16, 4, 8192}, {64, 16, 512}, {256, 64, 8}}
	for _, s := range shapes {
		a, ipiv := factors[float64](1, s.n, s.batch, 0, 0)
		bb := rhs[float64](1, s.n, s.nrhs, s.batch, 0, 0)
		flops := 2 * float64(s.n) * float64(s.n) * float64(s.nrhs) * float64(s.batch)
		name := fmt.Sprintf("n=%d,nrhs=%d,batch=%d", s.n, s.nrhs, s.batch)
		report := func(b *testing.B, start time.Time) {
			b.ReportMetric(flops*float64(b.N)/time.Since(start).Seconds()/1e9, "GFLOP/s")
		}
		run := func(b *testing.B, ctx context.Context) {
			size, err := getrs.BufferSize(ctx, batchlas.NoTrans, a, ipiv, bb)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]float64, size)
			start := time.Now()
			for b.Loop() {
				if err := getrs.Getrs(ctx, batchlas.NoTrans, a, ipiv, bb, ws); err != nil {
					b.Fatal(err)
				}
			}
			report(b, start)
		}
		b.Run(name+"/auto", func(b *testing.B) { run(b, context.Background()) })
		for _, c := range getrs.Op.Candidates(sel.Float64) {
			b.Run(name+"/"+c.String(), func(b *testing.B) { run(b, pin(context.Background(), c)) })
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			// Row-major copies of the factors, pivots as int and B, made
			// once outside the timing.
			lu := make([]float64, s.n*s.n*s.batch)
			piv := make([]int, s.n*s.batch)
			x := make([]float64, s.n*s.nrhs*s.batch)
			for i := 0; i < s.batch; i++ {
				for r := 0; r < s.n; r++ {
					for c := 0; c < s.n; c++ {
						lu[i*s.n*s.n+r*s.n+c] = a.At(i, r, c)
					}
					piv[i*s.n+r] = int(ipiv.At(i, r))
				}
			}
			impl := gonum.Implementation{}
			start := time.Now()
			for b.Loop() {
				for i := 0; i < s.batch; i++ {
					impl.Dgetrs(blas.NoTrans, s.n, s.nrhs, lu[i*s.n*s.n:(i+1)*s.n*s.n], s.n, piv[i*s.n:(i+1)*s.n], x[i*s.n*s.nrhs:(i+1)*s.n*s.nrhs], s.nrhs)
				}
			}
			report(b, start)
		})
	}
}
