//go:build amd64 && !purego

package batchlas

import "github.com/klauspost/cpuid/v2"

// cpuidex executes CPUID with eax = leaf and ecx = sub.
//
//go:noescape
func cpuidex(leaf, sub uint32) (a, b, c, d uint32)

// cacheWays reads the associativity of the L1 data cache and the L2 from
// the deterministic cache parameters leaf: 4 on Intel, 0x8000001D on AMD
// and Hygon (with the topology extensions). 0 where the CPU does not say.
func cacheWays() (l1d, l2 int) {
	leaf := uint32(4)
	amd := false
	switch cpuid.CPU.VendorID {
	case cpuid.AMD, cpuid.Hygon:
		leaf, amd = 0x8000001D, true
	case cpuid.Intel:
	default:
		return 0, 0
	}
	top, _, _, _ := cpuidex(leaf&0x80000000, 0)
	if top >= leaf {
		var regs [][4]uint32
		for sub := uint32(0); sub < 16; sub++ {
			a, b, c, d := cpuidex(leaf, sub)
			if a&0x1f == 0 { // no more caches
				break
			}
			regs = append(regs, [4]uint32{a, b, c, d})
		}
		l1d, l2 = waysOf(regs)
	}
	// Hypervisors often leave 0x8000001D empty (seen on a KVM guest of a
	// Zen 5); AMD's older leaves 0x80000005/6 still say.
	if amd && (l1d == 0 || l2 == 0) && top >= 0x80000006 {
		_, _, c5, _ := cpuidex(0x80000005, 0)
		_, _, c6, _ := cpuidex(0x80000006, 0)
		l1d, l2 = amdLegacyWays(c5, c6)
	}
	return l1d, l2
}
