//go:build amd64 && !purego

package gemm

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// The whole packed kernel runs on the portable tile too, so both code paths
// of the family are tested on one machine: the conformance suite runs the
// assembly, and this runs the portable path on straddling shapes.
func TestPackedPortablePath(t *testing.T) {
	if !simd.AVX512 && !simd.AVX2 {
		t.Skip("the portable path is the only one here, and the conformance suite runs it")
	}
	// The wide tiles off: the portable 4 x 2 tile runs.
	wide, wide2 := simd.AVX512, simd.AVX2
	simd.AVX512, simd.AVX2 = false, false
	defer func() { simd.AVX512, simd.AVX2 = wide, wide2 }()
	for _, c := range Op.Candidates(sel.Float64) {
		if c.Is(familyPacked) {
			checkCandidate[float64](t, c, layout{padLD: 3, padStride: 5}, 1.5, -0.5, fewForBig)
			checkCandidate[float32](t, c, layout{}, -1, 2, fewForBig)
		}
	}
}

// BenchmarkPackedPaths times the packed family's code paths on one
// machine, float64 C = A*B + C, for benchstat: path=avx512 and path=avx2
// (the wide assembly tiles) and path=portable (the 4 x 2 Go tile).
func BenchmarkPackedPaths(b *testing.B) {
	ch := "packed:kc=128"
	for _, s := range []struct{ n, batch int }{{16, 16384}, {64, 512}, {256, 8}} {
		for _, p := range tilePaths {
			b.Run(fmt.Sprintf("n=%d/batch=%d/path=%s", s.n, s.batch, p.name), func(b *testing.B) {
				restore, ok := p.use()
				if !ok {
					b.Skip("this CPU cannot run the path")
				}
				defer restore()
				r := testmat.Rand(7)
				a := testmat.Batch[float64](r, s.n, s.n, s.batch, 0, 0)
				bb := testmat.Batch[float64](r, s.n, s.n, s.batch, 0, 0)
				c := testmat.Batch[float64](r, s.n, s.n, s.batch, 0, 0)
				ctx := sel.WithPin(context.Background(), opName, ch)
				start := time.Now()
				for b.Loop() {
					if err := Gemm(ctx, batchlas.NoTrans, batchlas.NoTrans, 1, a, bb, 1, c, nil); err != nil {
						b.Fatal(err)
					}
				}
				flops := 2 * float64(s.n*s.n*s.n) * float64(s.batch)
				b.ReportMetric(flops*float64(b.N)/time.Since(start).Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
