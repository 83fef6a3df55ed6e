package cpuident

import (
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// cpuidFeatures pairs the feature names Facts uses with klauspost/cpuid's
// IDs. The names follow Linux's /proc/cpuinfo where it has one, with '-'
// for '_'.
var cpuidFeatures = []struct {
	id   cpuid.FeatureID
	name string
}{
	{cpuid.AVX2, "avx2"},
	{cpuid.FMA3, "fma"},
	{cpuid.AVX512F, "avx512f"},
	{cpuid.AVX512VL, "avx512vl"},
	{cpuid.AVX512BW, "avx512bw"},
	{cpuid.AVX512VNNI, "avx512vnni"},
	{cpuid.AVX512BF16, "avx512bf16"},
	{cpuid.AVX512FP16, "avx512fp16"},
	{cpuid.AVX512VP2INTERSECT, "avx512vp2intersect"},
	{cpuid.AVXVNNI, "avx-vnni"},
	{cpuid.AMXTILE, "amx-tile"},
	{cpuid.AMXBF16, "amx-bf16"},
	{cpuid.AMXFP16, "amx-fp16"},
	{cpuid.AMXCOMPLEX, "amx-complex"},
	{cpuid.AVX10, "avx10"},
}

// FromCPUID fills Facts from klauspost/cpuid's CPUInfo. It leaves L1DWays
// and L2Ways zero: cpuid does not report associativity, and the caller
// reads it with its own CPUID code. A nil c gives empty Facts.
func FromCPUID(c *cpuid.CPUInfo) Facts {
	if c == nil {
		return Facts{}
	}
	f := Facts{
		Vendor:     vendorOf(c.VendorID, c.VendorString),
		Family:     c.Family,
		Model:      c.Model,
		Stepping:   c.Stepping,
		Brand:      c.BrandName,
		Hypervisor: c.Supports(cpuid.HYPERVISOR),
		L1D:        c.Cache.L1D,
		L2:         c.Cache.L2,
		L3:         c.Cache.L3,
	}
	for _, x := range cpuidFeatures {
		if c.Supports(x.id) {
			f.Features = append(f.Features, x.name)
		}
	}
	return f
}

// zhaoxinVendorString is Zhaoxin's CPUID vendor string; cpuid v2.4.2 has
// no Vendor constant for it.
const zhaoxinVendorString = "  Shanghai  "

// vendorOf names the vendor as Facts spells it: the three vendors whose
// models the table knows by their word, others by their CPUID vendor
// string reduced to lower-case letters and digits ("CentaurHauls" ->
// "centaurhauls"), "" when there is none.
func vendorOf(id cpuid.Vendor, s string) string {
	switch {
	case id == cpuid.Intel:
		return "intel"
	case id == cpuid.AMD:
		return "amd"
	case id == cpuid.Hygon:
		return "hygon"
	case s == zhaoxinVendorString:
		return "zhaoxin"
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
