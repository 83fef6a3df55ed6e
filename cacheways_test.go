package batchlas

import "testing"

// leaf4 builds one sub-leaf of CPUID's deterministic cache parameters:
// type (1 data, 2 instruction, 3 unified), level, ways, 64-byte lines.
func leaf4(typ, level, ways, sets uint32) [4]uint32 {
	return [4]uint32{typ | level<<5, (ways-1)<<22 | 63, sets - 1, 0}
}

func TestWaysOfRecordedCPUs(t *testing.T) {
	cases := []struct {
		name    string
		regs    [][4]uint32
		l1d, l2 int
	}{
		// Sapphire Rapids and the Intel Xeon KVM guest of the issue: L1D
		// 48 KiB 12-way, L1I 32 KiB 8-way, L2 2 MiB 16-way, L3.
		{"sapphirerapids", [][4]uint32{leaf4(1, 1, 12, 64), leaf4(2, 1, 8, 64), leaf4(3, 2, 16, 2048), leaf4(3, 3, 15, 57344)}, 12, 16},
		// Skylake-X: L1D 32 KiB 8-way, L2 1 MiB 16-way.
		{"skylakex", [][4]uint32{leaf4(1, 1, 8, 64), leaf4(2, 1, 8, 64), leaf4(3, 2, 16, 1024)}, 8, 16},
		// Zen 4 through 0x8000001D: L1D 32 KiB 8-way, L2 1 MiB 8-way.
		{"zen4", [][4]uint32{leaf4(1, 1, 8, 64), leaf4(2, 1, 8, 64), leaf4(3, 2, 8, 2048)}, 8, 8},
		// A fully associative L2 has no sets to alias in: 0.
		{"fully associative", [][4]uint32{leaf4(1, 1, 8, 64), {3 | 2<<5 | 1<<9, 63, 0, 0}}, 8, 0},
		{"nothing reported", nil, 0, 0},
	}
	for _, c := range cases {
		l1d, l2 := waysOf(c.regs)
		if l1d != c.l1d || l2 != c.l2 {
			t.Errorf("%s: ways L1D %d L2 %d, want %d and %d", c.name, l1d, l2, c.l1d, c.l2)
		}
	}
}

func TestAMDLegacyWays(t *testing.T) {
	cases := []struct {
		name       string
		ecx5, ecx6 uint32
		l1d, l2    int
	}{
		// Read off the Zen 5 KVM guest (0x8000001D empty there): L1D 48 KiB
		// 12-way; L2 1 MiB, encoded 6 = 8 ways.
		{"zen5 guest", 0x300c0140, 0x04006140, 12, 8},
		// 16 ways is encoded 8; fully associative L1 (0xff) is 0.
		{"16-way L2", 0x200801_40, 0x04008140, 8, 16},
		{"fully associative", 0x20ff0140, 0x0400f140, 0, 0},
	}
	for _, c := range cases {
		l1d, l2 := amdLegacyWays(c.ecx5, c.ecx6)
		if l1d != c.l1d || l2 != c.l2 {
			t.Errorf("%s: ways L1D %d L2 %d, want %d and %d", c.name, l1d, l2, c.l1d, c.l2)
		}
	}
}
