package gesvd

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

// benchShapes are issue 37's target shapes, with smaller batches for
// bench time.
var benchShapes = []struct{ m, n, batch int }{{3, 3, 16384}, {8, 8, 8192}, {32, 32, 512}, {128, 128, 8}, {64, 8, 2048}}

// BenchmarkGesvd times decompositions with the thin vectors of both sides
// and of the values alone, per shape and dtype, in GFLOP/s of
// flopsPerMatrix's nominal count: automatic selection, every candidate
// pinned, and for float64 a plain serial loop calling gonum's Dgesvd per
// matrix (on a copy, which Dgesvd overwrites; the copy is timed too, as
// the vendor kernel's is).
func BenchmarkGesvd(b *testing.B) {
	b.Run("float64", benchGesvd[float64])
	b.Run("float32", benchGesvd[float32])
}

func benchGesvd[T batchlas.Float](b *testing.B) {
	for _, s := range benchShapes {
		for _, job := range []Job{ThinVectors, NoVectors} {
			a := testmat.Batch[T](testmat.Rand(42), s.m, s.n, s.batch, 0, 0)
			k := min(s.m, s.n)
			sv := batchlas.NewVectors[T](k, s.batch)
			var u, vt batchlas.Batch[T]
			if job == ThinVectors {
				u, vt = batchlas.NewBatch[T](s.m, k, s.batch), batchlas.NewBatch[T](k, s.n, s.batch)
			}
			flops := flopsPerMatrix(s.m, s.n, job != NoVectors) * float64(s.batch)
			run := func(b *testing.B, f func() error) {
				for b.Loop() {
					if err := f(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			}
			name := fmt.Sprintf("job=%s/m=%d/n=%d/batch=%d", job, s.m, s.n, s.batch)
			b.Run(name+"/auto", func(b *testing.B) {
				run(b, func() error { return Gesvd(context.Background(), job, job, a, sv, u, vt, nil) })
			})
			for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
				if !canRun(c, makeKey(job, job, a), opkit.DeviceFrom(context.Background())) {
					continue // lanes past lanesMax
				}
				ctx := pin(c)
				size, err := BufferSize(ctx, job, job, a, sv, u, vt)
				if err != nil {
					b.Fatal(err)
				}
				ws := make([]T, size)
				b.Run(name+"/"+c.String(), func(b *testing.B) {
					run(b, func() error { return Gesvd(ctx, job, job, a, sv, u, vt, ws) })
				})
			}
			data, ok := any(a.Data).([]float64)
			if !ok {
				continue
			}
			b.Run(name+"/gonumloop", func(b *testing.B) {
				impl := gonum.Implementation{}
				t := make([]float64, s.m*s.n)
				sg := make([]float64, k)
				ug, vtg := make([]float64, s.n*k), make([]float64, k*s.m)
				lj := lapack.SVDNone
				if job == ThinVectors {
					lj = lapack.SVDStore
				}
				q := []float64{0}
				impl.Dgesvd(lj, lj, s.n, s.m, t, s.m, sg, ug, k, vtg, s.m, q, -1)
				work := make([]float64, int(q[0]))
				run(b, func() error {
					for i := 0; i < a.Count; i++ {
						copy(t, data[i*a.Stride:i*a.Stride+s.m*s.n])
						impl.Dgesvd(lj, lj, s.n, s.m, t, s.m, sg, ug, k, vtg, s.m, work, len(work))
					}
					return nil
				})
			})
		}
	}
}
