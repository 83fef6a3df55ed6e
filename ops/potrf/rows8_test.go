package potrf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/fma"
	"github.com/batchlas-go/batchlas/internal/simdpath"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestRows8AssemblyIsGenerated(t *testing.T) { testmat.CheckGenerated(t, "rows8_amd64.s") }

// rows8Fused is rows8's assembly in Go: the same operations in the same
// order, each subtraction fused with its product (fma.Of), so the two
// agree bit for bit.
func rows8Fused[T batchlas.Float](x []T, ld, n int, l *[64]T) {
	for i := range n {
		var v [8]T
		for k := range v {
			s := x[k*ld+i] * 1
			for k2 := range k {
				s = fma.Of(-v[k2], l[8*k+k2], s)
			}
			v[k] = s * l[9*k]
		}
		for k := range v {
			x[k*ld+i] = v[k]
		}
	}
}

// TestRows8 runs rows8 on row counts straddling a vector of rows (8
// float64 and 16 float32 on AVX-512, 4 and 8 on AVX2) and its masked
// tail, on every path the machine has: each assembly agrees with
// rows8Fused bit for bit, the Go path with it to a few ulps, and none
// touches anything past the n rows of each column (NaN padding).
func TestRows8(t *testing.T) {
	rows8Case[float64](t)
	rows8Case[float32](t)
}

func rows8Case[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	eps := float64(testmat.Eps[T]())
	for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 31, 32, 33, 47, 48, 49} {
		ld := n + 5
		var l [64]T
		for c := range 8 {
			for c2 := range c {
				l[8*c+c2] = T(r.NormFloat64())
			}
			l[9*c] = T(1 / (1 + r.Float64()))
		}
		x := testmat.NaNs[T](7*ld + n + 5)
		for c := range 8 {
			for i := range n {
				x[c*ld+i] = T(r.NormFloat64())
			}
		}
		want := append([]T(nil), x...)
		rows8Fused(want, ld, n, &l)
		what := fmt.Sprintf("%T n=%d", T(0), n)
		for _, path := range simdpath.Paths() {
			got := append([]T(nil), x...)
			func() {
				defer simdpath.Use(path)()
				rows8(got, ld, n, &l)
			}()
			for c := range 8 {
				for i := n; i < ld && c*ld+i < len(got); i++ {
					require.True(t, math.IsNaN(float64(got[c*ld+i])), "%s %s: padding (%d, %d) written", what, path, i, c)
				}
			}
			if path != simdpath.Go {
				testmat.SameBits(t, what+" "+path, got, want)
				continue
			}
			for i := range got {
				if math.IsNaN(float64(want[i])) {
					continue
				}
				require.InDelta(t, float64(want[i]), float64(got[i]), 64*eps*(1+math.Abs(float64(want[i]))), "%s Go path, entry %d", what, i)
			}
		}
	}
}

// TestLowerFactor8BothPaths factors SPD matrices whose orders straddle
// the blocks of eight and the vector of rows, through lowerPanel (blocks
// of eight, then four, then pairs) on every path the machine has (the
// assemblies and the Go twin): each gives a Cholesky factor (residual),
// and a matrix that is not positive definite at column j reports j+1 on
// each.
func TestLowerFactor8BothPaths(t *testing.T) {
	lowerFactor8Case[float64](t)
	lowerFactor8Case[float32](t)
}

func lowerFactor8Case[T batchlas.Float](t *testing.T) {
	for _, n := range []int{8, 9, 12, 15, 16, 17, 24, 25, 33, 40} {
		a := batchFor[T](rand.New(rand.NewPCG(uint64(n), 3)), n, 2, true)
		for _, path := range simdpath.Paths() {
			got := testmat.Clone(a)
			restore := simdpath.Use(path)
			for i := range got.Count {
				require.Zero(t, lowerPanel(got.Data[i*got.Stride:], got.LD, 0, n, n), "%T n=%d %s", T(0), n, path)
			}
			// Column n-2 of the second matrix made indefinite.
			bad := testmat.Clone(a)
			j := n - 2
			bad.Set(1, j, j, -bad.At(1, j, j))
			info := lowerPanel(bad.Data[bad.Stride:], bad.LD, 0, n, n)
			restore()
			checkFactor(t, batchlas.Lower, a, got)
			require.Equal(t, j+1, info, "%T n=%d %s: info of an indefinite column", T(0), n, path)
		}
	}
}
