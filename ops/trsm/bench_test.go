package trsm_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/trsm"
	sel "github.com/batchlas-go/batchlas/select"
)

// BenchmarkTrsm times Left Lower NoTrans NonUnit float64 solves (the
// forward substitution every blocked factorisation runs) on a few shapes:
// automatic selection, every pinned candidate, and a serial loop calling
// gonum's blas64.Trsm per matrix, the plain alternative for a Go user.
// GFLOP/s counts m*m*n flops per matrix.
func BenchmarkTrsm(b *testing.B) {
	shapes := []struct{ m, n, batch int }{{8, 8, 65536}, {32, 32, 8192}, {128, 128, 256}, {32, 1, 512}}
	for _, s := range shapes {
		r := testmat.Rand(1)
		a := testmat.Batch[float64](r, s.m, s.m, s.batch, 0, 0)
		testmat.Triangular(r, a, batchlas.Lower)
		bb := testmat.Batch[float64](r, s.m, s.n, s.batch, 0, 0)
		flops := float64(s.m) * float64(s.m) * float64(s.n) * float64(s.batch)
		name := fmt.Sprintf("m=%d,n=%d,batch=%d", s.m, s.n, s.batch)
		report := func(b *testing.B, start time.Time) {
			b.ReportMetric(flops*float64(b.N)/time.Since(start).Seconds()/1e9, "GFLOP/s")
		}
		run := func(b *testing.B, ctx context.Context) {
			ws := make([]float64, mustSize(b, ctx, a, bb))
			start := time.Now()
			for b.Loop() {
				if err := trsm.Trsm(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, 1.0, a, bb, ws); err != nil {
					b.Fatal(err)
				}
			}
			report(b, start)
		}
		b.Run(name+"/auto", func(b *testing.B) { run(b, context.Background()) })
		for _, c := range trsm.Op.Candidates(sel.Float64) {
			b.Run(name+"/"+c.String(), func(b *testing.B) {
				run(b, sel.WithPin(context.Background(), "trsm", c.String()))
			})
		}
		b.Run(name+"/gonumloop", func(b *testing.B) {
			start := time.Now()
			for b.Loop() {
				for i := 0; i < s.batch; i++ {
					// Column-major A is row-major A^T: Left Lower becomes Right Upper.
					am := blas64.General{Rows: s.m, Cols: s.m, Stride: a.LD, Data: a.Data[i*a.Stride:]}
					bm := blas64.General{Rows: s.n, Cols: s.m, Stride: bb.LD, Data: bb.Data[i*bb.Stride:]}
					blas64.Trsm(blas.Right, blas.NoTrans, 1, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: s.m, Stride: am.Stride, Data: am.Data}, bm)
				}
			}
			report(b, start)
		})
	}
}

func mustSize(b *testing.B, ctx context.Context, a, bb batchlas.Batch[float64]) int {
	n, err := trsm.BufferSize(ctx, batchlas.Left, batchlas.Lower, batchlas.NoTrans, batchlas.NonUnit, a, bb)
	if err != nil {
		b.Fatal(err)
	}
	return n
}
