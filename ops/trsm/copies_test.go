package trsm

import (
	"testing"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// TestCopiesE: side Left copies E where its columns would conflict in the
// device's caches (leading dimension 8 KiB on a 48 KiB 12-way L1 or a 2
// MiB 16-way L2) and for E = A^T, and reads it in place otherwise.
func TestCopiesE(t *testing.T) {
	zen5 := &sel.Device{L1D: 48 << 10, L1DWays: 12, L2: 1 << 20, L2Ways: 16}
	xeon := &sel.Device{L1D: 48 << 10, L1DWays: 12, L2: 2 << 20, L2Ways: 16}
	left := &problem{side: batchlas.Left, ta: batchlas.NoTrans, t: 1024}
	cases := []struct {
		name string
		p    *problem
		d    *sel.Device
		lda  int
		want bool
	}{
		{"t=1024 ld=1024 Zen 5", left, zen5, 1024, true},
		{"t=1024 ld=1024 Xeon", left, xeon, 1024, true},
		{"t=1024 ld=1032", left, zen5, 1032, false},
		{"t=1000 tight", &problem{side: batchlas.Left, ta: batchlas.NoTrans, t: 1000}, xeon, 1000, false},
		{"t=64 ld=512", &problem{side: batchlas.Left, ta: batchlas.NoTrans, t: 64}, zen5, 512, true},
		{"transposed", &problem{side: batchlas.Left, ta: batchlas.Trans, t: 40}, zen5, 40, true},
		{"side Right", &problem{side: batchlas.Right, ta: batchlas.NoTrans, t: 1024}, zen5, 1024, false},
	}
	for _, c := range cases {
		if got := copiesE[float64](c.p, c.d, c.lda); got != c.want {
			t.Errorf("%s: copiesE = %v, want %v", c.name, got, c.want)
		}
	}
}
