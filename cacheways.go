package batchlas

// waysOf decodes the associativity of the L1 data cache and the L2 from
// the registers of CPUID's deterministic cache parameters leaf (4 on
// Intel, 0x8000001D on AMD: the same layout), one entry per sub-leaf:
// eax bits 4:0 the type (1 data, 3 unified), 7:5 the level; ebx bits
// 31:22 the ways less one. A fully associative cache (eax bit 9) reports
// 0: it has no sets to alias in, and callers treat 0 as "not reported".
func waysOf(regs [][4]uint32) (l1d, l2 int) {
	for _, r := range regs {
		typ, level := r[0]&0x1f, (r[0]>>5)&7
		if typ != 1 && typ != 3 {
			continue // instruction caches
		}
		ways := int(r[1]>>22) + 1
		if r[0]&(1<<9) != 0 {
			ways = 0
		}
		switch level {
		case 1:
			l1d = ways
		case 2:
			l2 = ways
		}
	}
	return l1d, l2
}

// amdLegacyWays decodes AMD's leaves 0x80000005 (ecx5: the L1 data cache,
// ways in bits 23:16, 0xff fully associative) and 0x80000006 (ecx6: the
// L2, ways in bits 15:12 as an encoded field). Fully associative, disabled
// and reserved encodings give 0.
func amdLegacyWays(ecx5, ecx6 uint32) (l1d, l2 int) {
	l1d = int(ecx5>>16) & 0xff
	if l1d == 0xff {
		l1d = 0
	}
	// AMD's encoding of the L2's associativity (0x9: see leaf 0x8000001D).
	enc := [16]int{0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0}
	return l1d, enc[(ecx6>>12)&0xf]
}
