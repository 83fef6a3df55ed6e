package lanesqr

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas/internal/lanes"
	"github.com/batchlas-go/batchlas/internal/qr"
)

// BenchmarkQR times one group against qr.Geqr2 on each of its matrices,
// one core, GFLOP/s of LAPACK's count.
func BenchmarkQR(b *testing.B) {
	for _, s := range [][2]int{{4, 4}, {8, 8}, {16, 16}, {32, 8}, {32, 32}} {
		m, n := s[0], s[1]
		L := lanes.Lanes[float64]()
		flops := float64(L) * (2*float64(m)*float64(n)*float64(n) - 2*float64(n*n*n)/3)
		src := random[float64](rand.New(rand.NewPCG(1, 1)), m, n, L, 1)
		ld := lanes.GroupLD(m)
		g := make([]float64, n*ld*L)
		tau := make([]float64, n*L)
		work := make([]float64, Slot[float64](m))
		b.Run(fmt.Sprintf("lanes/m=%d/n=%d", m, n), func(b *testing.B) {
			for b.Loop() {
				lanes.Gather(g, src, m*n, m, m, n, L, ld)
				QR(g, m, n, ld, L, tau, work)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		f := make([]float64, len(src))
		b.Run(fmt.Sprintf("geqr2/m=%d/n=%d", m, n), func(b *testing.B) {
			for b.Loop() {
				copy(f, src)
				for l := range L {
					qr.Geqr2(m, n, f[l*m*n:(l+1)*m*n], m, tau[l*n:(l+1)*n], nil)
				}
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
