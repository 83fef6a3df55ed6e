package subst

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSolveCols times one 32 x 32 (and 128 x 4) solve and the
// packing of its triangle, the per-matrix work of trsm's vector family
// on side Left.
func BenchmarkSolveCols(b *testing.B) {
	for _, sh := range []struct{ t, n int }{{32, 32}, {128, 4}, {32, 1}} {
		r := rand.New(rand.NewPCG(1, 2))
		s := newSystem(r, sh.t, false, false, false)
		dg := make([]float64, DiagSize[float64](sh.t))
		c0 := rhs(r, sh.t, sh.n, sh.t)
		c := append([]float64(nil), c0...)
		b.Run(fmt.Sprintf("t=%d/n=%d/pack", sh.t, sh.n), func(b *testing.B) {
			for b.Loop() {
				PackDiag(dg, s.a, s.ecs, sh.t, false, false)
			}
		})
		b.Run(fmt.Sprintf("t=%d/n=%d/solve", sh.t, sh.n), func(b *testing.B) {
			for b.Loop() {
				copy(c, c0) // solving in place again would drift towards subnormals
				SolveCols(s.a, s.ecs, dg, sh.t, false, c, sh.t, sh.n, 1)
			}
			b.ReportMetric(float64(sh.t*sh.t*sh.n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
