package geqrf

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// benchShapes are issue 36's target shapes (the first with a smaller
// batch than its 65536, for bench time).
var benchShapes = []struct{ m, n, batch int }{{8, 8, 16384}, {32, 32, 4096}, {128, 128, 256}, {256, 32, 2000}}

// BenchmarkGeqrf times factorisations per shape and dtype, in GFLOP/s of
// QR's count (2mn^2 - 2n^3/3 for m >= n): automatic selection, every
// candidate pinned, and for float64 a plain serial loop calling gonum's
// Dgeqrf per matrix on row-major data (the same matrices read as their
// transposes, n x m: the same kind of work, not the same numbers). Each
// iteration refactors a fresh copy of the same batch; the copy is not
// timed.
func BenchmarkGeqrf(b *testing.B) {
	b.Run("float64", benchGeqrf[float64])
	b.Run("float32", benchGeqrf[float32])
}

func benchGeqrf[T batchlas.Float](b *testing.B) {
	for _, s := range benchShapes {
		r := testmat.Rand(42)
		src := testmat.Batch[T](r, s.m, s.n, s.batch, 0, 0)
		a := testmat.Clone(src)
		tau := batchlas.NewVectors[T](min(s.m, s.n), s.batch)
		flops := flopsPerMatrix(s.m, s.n) * float64(s.batch)
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
		name := fmt.Sprintf("m=%d/n=%d/batch=%d", s.m, s.n, s.batch)
		b.Run(name+"/auto", func(b *testing.B) {
			run(b, func() error { return Geqrf(context.Background(), a, tau, nil) })
		})
		for _, c := range Op.Candidates(opDType[T]()) {
			if !canRun(c, makeKey(a), opkit.DeviceFrom(context.Background())) {
				continue // lanes past its largest order
			}
			ctx := pin(c)
			size, err := BufferSize(ctx, a, tau)
			if err != nil {
				b.Fatal(err)
			}
			ws := make([]T, size)
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, func() error { return Geqrf(ctx, a, tau, ws) })
			})
		}
		data, ok := any(a.Data).([]float64)
		if !ok {
			continue
		}
		td, _ := any(tau.Data).([]float64)
		b.Run(name+"/gonumloop", func(b *testing.B) {
			impl := gonum.Implementation{}
			work := make([]float64, s.m*32)
			run(b, func() error {
				for i := 0; i < a.Count; i++ {
					impl.Dgeqrf(s.n, s.m, data[i*a.Stride:], s.m, td[i*tau.Stride:i*tau.Stride+min(s.m, s.n)], work, len(work))
				}
				return nil
			})
		})
	}
}

func opDType[T batchlas.Float]() sel.DType {
	var z T
	if _, ok := any(z).(float32); ok {
		return sel.Float32
	}
	return sel.Float64
}
