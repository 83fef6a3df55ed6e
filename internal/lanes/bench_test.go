package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/simdpath"
)

// BenchmarkJacobi times one group of random symmetric matrices to
// convergence, with vectors and values only, per order and element type,
// and reports the sweeps made.
func BenchmarkJacobi(b *testing.B) {
	for _, n := range []int{4, 8, 16, 32} {
		for _, novec := range []bool{false, true} {
			b.Run(fmt.Sprintf("float64/n=%d/values=%v", n, novec), func(b *testing.B) { benchJacobi[float64](b, n, novec) })
			b.Run(fmt.Sprintf("float32/n=%d/values=%v", n, novec), func(b *testing.B) { benchJacobi[float32](b, n, novec) })
		}
	}
}

func benchJacobi[T batchlas.Float](b *testing.B, n int, novec bool) {
	r := rand.New(rand.NewPCG(7, 8))
	L := Lanes[T]()
	a0 := make([]T, n*n*L)
	for c := 0; c < n; c++ {
		for row := 0; row <= c; row++ {
			for l := 0; l < L; l++ {
				x := T(r.NormFloat64())
				a0[(c*n+row)*L+l], a0[(row*n+c)*L+l] = x, x
			}
		}
	}
	a, v := make([]T, len(a0)), make([]T, len(a0))
	sweeps := 0
	for i := 0; i < b.N; i++ {
		copy(a, a0)
		clear(v)
		for j := 0; j < n; j++ {
			for l := 0; l < L; l++ {
				v[(j*n+j)*L+l] = 1
			}
		}
		vv := v
		if novec {
			vv = nil
		}
		_, made := run(simdpath.Paths()[0], a, vv, n, n, 30)
		sweeps += made
	}
	b.ReportMetric(float64(sweeps)/float64(b.N), "sweeps")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(L), "ns/matrix")
}

// BenchmarkChol times one group's factor and solve per order, with no
// right-hand side and with four (posv's target shapes), copy of the group
// included.
func BenchmarkChol(b *testing.B) { benchSolvers(b, benchChol[float64], benchChol[float32]) }

// benchSolvers runs a factor-and-solve benchmark per dtype over orders 8,
// 16 and 32, with no right-hand side and with four.
func benchSolvers(b *testing.B, f64, f32 func(b *testing.B, n, nrhs int)) {
	for _, n := range []int{8, 16, 32} {
		for _, nrhs := range []int{0, 4} {
			b.Run(fmt.Sprintf("float64/n=%d/nrhs=%d", n, nrhs), func(b *testing.B) { f64(b, n, nrhs) })
			b.Run(fmt.Sprintf("float32/n=%d/nrhs=%d", n, nrhs), func(b *testing.B) { f32(b, n, nrhs) })
		}
	}
}

func benchChol[T batchlas.Float](b *testing.B, n, nrhs int) {
	L, ld := Lanes[T](), GroupLD(n)
	a0 := make([]T, n*ld*L)
	for c := 0; c < n; c++ {
		for l := 0; l < L; l++ {
			a0[(c*ld+c)*L+l] = T(n)
			for r := c + 1; r < n; r++ {
				a0[(c*ld+r)*L+l] = 0.5
				a0[(r*ld+c)*L+l] = 0.5
			}
		}
	}
	a, bb, info := make([]T, len(a0)), make([]T, nrhs*ld*L), make([]T, L)
	for i := 0; i < b.N; i++ {
		copy(a, a0)
		for j := range bb {
			bb[j] = 1
		}
		Chol(true, a, bb, n, nrhs, ld, info)
	}
	flops := float64(n*n*n)/3 + 2*float64(n*n*nrhs)
	b.ReportMetric(flops*float64(L)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkLU times one group's factor and solve per order, with no
// right-hand side and with four (gesv's target shapes), copy of the group
// included.
func BenchmarkLU(b *testing.B) { benchSolvers(b, benchLU[float64], benchLU[float32]) }

func benchLU[T batchlas.Float](b *testing.B, n, nrhs int) {
	r := rand.New(rand.NewPCG(9, 10))
	L, ld := Lanes[T](), GroupLD(n)
	a0, b0 := make([]T, n*ld*L), make([]T, max(nrhs, 1)*ld*L)
	// As matgen.General: uniform entries and a dominant one in each column
	// on a random permutation of the rows, different in each lane, so the
	// pivots differ between lanes at every step (the row swaps' worst case).
	for i := range a0 {
		a0[i] = T(2*r.Float64() - 1)
	}
	for l := 0; l < L; l++ {
		for c, row := range r.Perm(n) {
			a0[(c*ld+row)*L+l] += T(2 * math.Sqrt(float64(n)))
		}
	}
	for i := range b0 {
		b0[i] = T(r.NormFloat64())
	}
	a, bb, piv := make([]T, len(a0)), make([]T, len(b0)), make([]T, n*L)
	for i := 0; i < b.N; i++ {
		copy(a, a0)
		copy(bb, b0)
		LU(a, bb, piv, n, nrhs, ld, 0x1p-1000)
	}
	flops := 2*float64(n*n*n)/3 + 2*float64(n*n*nrhs)
	b.ReportMetric(flops*float64(L)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
