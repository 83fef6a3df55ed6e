package cache

import (
	"testing"

	sel "github.com/batchlas-go/batchlas/select"
)

func TestConflicts(t *testing.T) {
	zen5L1 := Level{Size: 48 << 10, Ways: 12}
	zen5L2 := Level{Size: 1 << 20, Ways: 16}
	xeonL2 := Level{Size: 2 << 20, Ways: 16}
	cases := []struct {
		name                     string
		l                        Level
		ldBytes, colBytes, ncols int
		want                     bool
	}{
		// A 24-row float64 tile read over 64 columns of a view with ld
		// 1024: every column starts in the same L1 set.
		{"tile, ld 1024", zen5L1, 8192, 192, 64, true},
		{"tile, ld 1032", zen5L1, 8256, 192, 64, false},
		{"tile, ld 512", zen5L1, 4096, 192, 64, true},
		{"tile, ld 1000", zen5L1, 8000, 192, 64, false},
		// Too much for the level in any layout: not a conflict.
		{"tile, 512 deep", zen5L1, 8192, 192, 512, false},
		// gemm's row panel of 120 float64 rows, 512 deep, in L2.
		{"panel, ld 1024, Zen 5", zen5L2, 8192, 960, 512, true},
		{"panel, ld 1024, Xeon", xeonL2, 8192, 960, 512, true},
		{"panel, ld 1040", zen5L2, 8320, 960, 512, false},
		{"panel, ld 1000", zen5L2, 8000, 960, 512, false},
		// Tight columns never conflict.
		{"tight 120 rows", zen5L2, 960, 960, 512, false},
		{"tight 64 rows", zen5L1, 512, 512, 32, false},
		{"one column", zen5L1, 8192, 192, 1, false},
	}
	for _, c := range cases {
		if got := c.l.Conflicts(c.ldBytes, c.colBytes, c.ncols); got != c.want {
			t.Errorf("%s: Conflicts(%d, %d, %d) = %v, want %v", c.name, c.ldBytes, c.colBytes, c.ncols, got, c.want)
		}
	}
}

func TestLevelsOfDevice(t *testing.T) {
	if got := L1D(nil); got != defaultL1D {
		t.Errorf("L1D(nil) = %+v, want the default %+v", got, defaultL1D)
	}
	d := &sel.Device{L1D: 48 << 10, L1DWays: 12, L2: 2 << 20}
	if got := L1D(d); got != (Level{48 << 10, 12}) {
		t.Errorf("L1D = %+v, want 48 KiB 12-way", got)
	}
	// An L2 whose ways are not reported gets the default's.
	if got := L2(d); got != (Level{2 << 20, defaultL2.Ways}) {
		t.Errorf("L2 = %+v, want 2 MiB with the default ways", got)
	}
	// Ways that would make sets smaller than a line are ignored.
	if got := L1D(&sel.Device{L1D: 4096, L1DWays: 4096}); got.Ways != defaultL1D.Ways {
		t.Errorf("L1D with 4096 ways of 1 byte kept %d ways", got.Ways)
	}
}

func TestPaddedLD(t *testing.T) {
	for _, es := range []int{4, 8} {
		for rows := 1; rows <= 3000; rows++ {
			ld := PaddedLD(rows, es)
			if ld < rows || ld*es%Line != 0 && rows*es > Line {
				t.Fatalf("PaddedLD(%d, %d) = %d: want at least rows, whole lines", rows, es, ld)
			}
			if ld*es > Line*8 && (ld*es/Line)%2 == 0 {
				t.Fatalf("PaddedLD(%d, %d) = %d: an even number of lines", rows, es, ld)
			}
			if ld*9 > (rows+Line/es)*10 {
				t.Fatalf("PaddedLD(%d, %d) = %d: more than a line and a ninth over", rows, es, ld)
			}
			// A column segment of one line, read over many columns,
			// never conflicts in a 48 KiB 12-way L1 or a 2 MiB 16-way L2.
			for _, l := range []Level{{48 << 10, 12}, {2 << 20, 16}} {
				if rows*es > 8*Line && l.Conflicts(ld*es, Line, 64) {
					t.Fatalf("PaddedLD(%d, %d) = %d conflicts in %+v", rows, es, ld, l)
				}
			}
		}
	}
}
