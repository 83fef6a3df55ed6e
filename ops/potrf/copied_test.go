package potrf

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestCopiesLower: a Lower matrix of order 256 or more whose columns would
// conflict in the device's caches (leading dimension a multiple of 4 KiB)
// is factored through a padded copy, others where they lie.
func TestCopiesLower(t *testing.T) {
	zen5 := &sel.Device{L1D: 48 << 10, L1DWays: 12, L2: 1 << 20, L2Ways: 8}
	xeon := &sel.Device{L1D: 48 << 10, L1DWays: 12, L2: 2 << 20, L2Ways: 16}
	for _, c := range []struct {
		d           *sel.Device
		ld, n       int
		f32, copies bool
	}{
		{zen5, 1024, 1024, true, true},
		{xeon, 1024, 1024, true, true},
		{zen5, 1024, 1024, false, true},
		{zen5, 1032, 1024, true, false},
		{zen5, 1000, 1000, false, false},
		{zen5, 512, 300, false, true},
		{zen5, 520, 300, false, false},
		{zen5, 4096, 200, false, false}, // too small to pay for the copies
	} {
		got := copiesLower[float64](c.d, c.ld, c.n)
		if c.f32 {
			got = copiesLower[float32](c.d, c.ld, c.n)
		}
		require.Equal(t, c.copies, got, "ld=%d n=%d float32=%v", c.ld, c.n, c.f32)
	}
}

// TestCopiedLowerSameBits: the kernels that factor a Lower matrix through
// a copy (with ld 512, which conflicts on every device met) give the bits
// they give in place (ld 520), leave the upper triangle alone, and report
// the same info for a matrix that is not positive definite.
func TestCopiedLowerSameBits(t *testing.T) {
	const n = 300
	r := testmat.Rand(5)
	src := batchFor[float64](r, n, 2, false)
	src.Data[src.Stride+200*n+200] = -1e6 // matrix 1 fails at column 201
	for _, c := range []sel.Choice{unblockedFamily.With(), lpanelFamily.With(8), lpanelFamily.With(32), blockedFamily.With()} {
		var outs [][]float64
		for _, ld := range []int{512, 520} {
			require.Equal(t, ld == 512, copiesLower[float64](batchlas.Host(), ld, n))
			a := testmat.WithLD(r, src, ld)
			before := testmat.Clone(a)
			err := Potrf(pin(c), batchlas.Lower, a, nil)
			var ne *batchlas.NumericalError
			require.ErrorAs(t, err, &ne, "%s ld=%d", c, ld)
			require.Equal(t, []int{1}, ne.Index, "%s ld=%d", c, ld)
			require.Equal(t, []int{201}, ne.Info, "%s ld=%d", c, ld)
			out := make([]float64, 0, 2*n*n)
			for i := range 2 {
				for col := range n {
					for row := range n {
						x, b := a.At(i, row, col), before.At(i, row, col)
						if row < col && math.Float64bits(x) != math.Float64bits(b) {
							t.Fatalf("%s ld=%d: wrote the upper triangle at (%d,%d) of matrix %d", c, ld, row, col, i)
						}
						out = append(out, x)
					}
				}
			}
			outs = append(outs, out)
		}
		for i := range outs[0] {
			if math.Float64bits(outs[0][i]) != math.Float64bits(outs[1][i]) {
				t.Fatalf("%s: element %d differs between the copied (ld 512) and the in-place (ld 520) factor: %v, %v", c, i, outs[0][i], outs[1][i])
			}
		}
	}
}
