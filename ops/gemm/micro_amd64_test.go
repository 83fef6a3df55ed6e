//go:build amd64 && !purego

package gemm

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simd"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// The assembly tile agrees with the portable one on every depth that
// straddles its four-step unrolling, in both dtypes, to the rounding the
// different summation order and the fused multiply-adds allow.
func TestMicroTileAssemblyMatchesPortable(t *testing.T) {
	if !useFMA {
		t.Skip("this CPU has no AVX2/FMA: the assembly path is not used here")
	}
	microTileAgrees[float64](t, 1e-14)
	microTileAgrees[float32](t, 1e-5)
}

func microTileAgrees[T batchlas.Float](t *testing.T, rel float64) {
	r := rand.New(rand.NewPCG(1, 2))
	for kb := 1; kb <= 67; kb++ {
		// One extra k step of garbage past each panel: the tile must not
		// read it.
		ap := make([]T, (kb+1)*mr)
		bp := make([]T, (kb+1)*nr)
		for i := range ap {
			ap[i] = T(r.Float64()*2 - 1)
		}
		for i := range bp {
			bp[i] = T(r.Float64()*2 - 1)
		}
		for i := kb * mr; i < len(ap); i++ {
			ap[i] = T(math.NaN())
		}
		for i := kb * nr; i < len(bp); i++ {
			bp[i] = T(math.NaN())
		}
		g0, g1, g2, g3, h0, h1, h2, h3 := microTile(kb, ap, bp)
		w0, w1, w2, w3, v0, v1, v2, v3 := microPacked(kb, ap, bp)
		got := []T{g0, g1, g2, g3, h0, h1, h2, h3}
		want := []T{w0, w1, w2, w3, v0, v1, v2, v3}
		for i := range got {
			// Each sum has kb terms of magnitude at most 1.
			if d := math.Abs(float64(got[i] - want[i])); !(d <= rel*float64(kb)) {
				t.Fatalf("%T kb=%d element %d: assembly %v, portable %v", got[i], kb, i, got[i], want[i])
			}
		}
	}
}

// The whole packed kernel runs on the portable tile too, so both code paths
// of the family are tested on one machine: the conformance suite runs the
// assembly, and this runs the portable path on straddling shapes.
func TestPackedPortablePath(t *testing.T) {
	if !useFMA {
		t.Skip("the portable path is the only one here, and the conformance suite runs it")
	}
	// The wide AVX-512 tile is off too: the portable 4 x 2 tile runs.
	fma, wide := useFMA, simd.AVX512
	useFMA, simd.AVX512 = false, false
	defer func() { useFMA, simd.AVX512 = fma, wide }()
	for _, c := range Op.Candidates(sel.Float64) {
		if c.Is(familyPacked) {
			checkCandidate[float64](t, c, layout{padLD: 3, padStride: 5}, 1.5, -0.5, fewForBig)
			checkCandidate[float32](t, c, layout{}, -1, 2, fewForBig)
		}
	}
}

// BenchmarkPackedPaths times the packed family's code paths on one
// machine, float64 C = A*B + C, for benchstat: path=avx512 (the wide
// assembly tile), path=avx2 (the 4 x 2 assembly tile) and path=portable.
func BenchmarkPackedPaths(b *testing.B) {
	if !useFMA {
		b.Skip("this CPU has no AVX2/FMA")
	}
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
