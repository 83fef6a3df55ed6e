package cpuident

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

const (
	kiB = 1024
	miB = 1024 * kiB
)

// Feature sets as the CPUs report them (the subset Facts carries).
var (
	fAVX2     = []string{"avx2", "fma"}
	fSKX      = []string{"avx2", "fma", "avx512f", "avx512vl", "avx512bw"}
	fCLX      = append(slices.Clone(fSKX), "avx512vnni")
	fCPX      = append(slices.Clone(fCLX), "avx512bf16")
	fICX      = fCLX
	fTGL      = append(slices.Clone(fCLX), "avx512vp2intersect")
	fSPR      = append(slices.Clone(fCPX), "avx512fp16", "avx-vnni", "amx-tile", "amx-bf16")
	fGNR      = append(slices.Clone(fSPR), "amx-fp16", "avx10")
	fSPRNoAMX = append(slices.Clone(fCPX), "avx512fp16", "avx-vnni")
	fADL      = []string{"avx2", "fma", "avx-vnni"}
	fZen4     = slices.Clone(fCPX)
	fZen5     = append(slices.Clone(fCPX), "avx512vp2intersect", "avx-vnni")
)

type nameCase struct {
	what string
	f    Facts
	want string
}

// realCPUs are facts recorded on (or published for) real machines.
var realCPUs = []nameCase{
	{"EPYC 7742 (Zen 2)", Facts{Vendor: "amd", Family: 0x17, Model: 0x31, Stepping: 0,
		Brand: "AMD EPYC 7742 64-Core Processor", L1D: 32 * kiB, L2: 512 * kiB, L3: 16 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "zen2"},
	{"EPYC 7763 (Zen 3)", Facts{Vendor: "amd", Family: 0x19, Model: 0x01, Stepping: 1,
		Brand: "AMD EPYC 7763 64-Core Processor", L1D: 32 * kiB, L2: 512 * kiB, L3: 32 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "zen3"},
	{"Ryzen 9 5950X (Zen 3)", Facts{Vendor: "amd", Family: 0x19, Model: 0x21, Stepping: 0,
		Brand: "AMD Ryzen 9 5950X 16-Core Processor", L1D: 32 * kiB, L2: 512 * kiB, L3: 32 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "zen3"},
	{"EPYC 9654 (Zen 4)", Facts{Vendor: "amd", Family: 0x19, Model: 0x11, Stepping: 1,
		Brand: "AMD EPYC 9654 96-Core Processor", L1D: 32 * kiB, L2: 1 * miB, L3: 32 * miB,
		L1DWays: 8, L2Ways: 8, Features: fZen4}, "zen4"},
	{"Ryzen 9 7950X (Zen 4)", Facts{Vendor: "amd", Family: 0x19, Model: 0x61, Stepping: 2,
		Brand: "AMD Ryzen 9 7950X 16-Core Processor", L1D: 32 * kiB, L2: 1 * miB, L3: 32 * miB,
		L1DWays: 8, L2Ways: 8, Features: fZen4}, "zen4"},
	{"EPYC 9755 (Zen 5, Turin)", Facts{Vendor: "amd", Family: 0x1A, Model: 0x02, Stepping: 1,
		Brand: "AMD EPYC 9755 128-Core Processor", L1D: 48 * kiB, L2: 1 * miB, L3: 32 * miB,
		L1DWays: 12, L2Ways: 16, Features: fZen5}, "zen5"},
	{"Ryzen 9 9950X (Zen 5)", Facts{Vendor: "amd", Family: 0x1A, Model: 0x44, Stepping: 0,
		Brand: "AMD Ryzen 9 9950X 16-Core Processor", L1D: 48 * kiB, L2: 1 * miB, L3: 32 * miB,
		L1DWays: 12, L2Ways: 16, Features: fZen5}, "zen5"},
	// The VM this package was written on (cpuid's brand there is "Oxide
	// Virtual Turin-like Processor"; /proc/cpuinfo says "AMD EPYC").
	{"this VM (Turin guest)", Facts{Vendor: "amd", Family: 0x1A, Model: 0x02, Stepping: 1,
		Brand: "AMD EPYC", Hypervisor: true, L1D: 48 * kiB, L2: 1 * miB, L3: -1,
		L1DWays: 12, L2Ways: 8, Features: fZen5}, "zen5"},
	{"Hygon C86 7185 (Dhyana)", Facts{Vendor: "hygon", Family: 0x18, Model: 0x01, Stepping: 1,
		Brand: "Hygon C86 7185 32-core Processor", L1D: 32 * kiB, L2: 512 * kiB, L3: 8 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "dhyana"},

	{"Core i7-4770 (Haswell)", Facts{Vendor: "intel", Family: 6, Model: 0x3C, Stepping: 3,
		Brand: "Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz", L1D: 32 * kiB, L2: 256 * kiB, L3: 8 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "haswell"},
	{"Xeon E5-2699 v4 (Broadwell-EP)", Facts{Vendor: "intel", Family: 6, Model: 0x4F, Stepping: 1,
		Brand: "Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz", L1D: 32 * kiB, L2: 256 * kiB, L3: 55 * miB,
		L1DWays: 8, L2Ways: 8, Features: fAVX2}, "broadwell"},
	{"Core i7-8700K (Coffee Lake)", Facts{Vendor: "intel", Family: 6, Model: 0x9E, Stepping: 10,
		Brand: "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz", L1D: 32 * kiB, L2: 256 * kiB, L3: 12 * miB,
		L1DWays: 8, L2Ways: 4, Features: fAVX2}, "skylake"},
	{"Xeon Platinum 8180 (Skylake-SP)", Facts{Vendor: "intel", Family: 6, Model: 0x55, Stepping: 4,
		Brand: "Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", L1D: 32 * kiB, L2: 1 * miB, L3: 38912 * kiB,
		L1DWays: 8, L2Ways: 16, Features: fSKX}, "skylake-server"},
	{"Xeon Platinum 8280 (Cascade Lake)", Facts{Vendor: "intel", Family: 6, Model: 0x55, Stepping: 7,
		Brand: "Intel(R) Xeon(R) Platinum 8280 CPU @ 2.70GHz", L1D: 32 * kiB, L2: 1 * miB, L3: 38912 * kiB,
		L1DWays: 8, L2Ways: 16, Features: fCLX}, "cascadelake"},
	{"Xeon Platinum 8380H (Cooper Lake)", Facts{Vendor: "intel", Family: 6, Model: 0x55, Stepping: 11,
		Brand: "Intel(R) Xeon(R) Platinum 8380H CPU @ 2.90GHz", L1D: 32 * kiB, L2: 1 * miB, L3: 38912 * kiB,
		L1DWays: 8, L2Ways: 16, Features: fCPX}, "cooperlake"},
	{"Xeon Platinum 8380 (Ice Lake-SP)", Facts{Vendor: "intel", Family: 6, Model: 0x6A, Stepping: 6,
		Brand: "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", L1D: 48 * kiB, L2: 1280 * kiB, L3: 60 * miB,
		L1DWays: 12, L2Ways: 20, Features: fICX}, "icelake-server"},
	{"Core i7-1185G7 (Tiger Lake)", Facts{Vendor: "intel", Family: 6, Model: 0x8C, Stepping: 1,
		Brand: "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz", L1D: 48 * kiB, L2: 1280 * kiB, L3: 12 * miB,
		L1DWays: 12, L2Ways: 20, Features: fTGL}, "tigerlake"},
	{"Xeon Platinum 8480+ (Sapphire Rapids)", Facts{Vendor: "intel", Family: 6, Model: 0x8F, Stepping: 8,
		Brand: "Intel(R) Xeon(R) Platinum 8480+", L1D: 48 * kiB, L2: 2 * miB, L3: 105 * miB,
		L1DWays: 12, L2Ways: 16, Features: fSPR}, "sapphirerapids"},
	{"Xeon Platinum 8592+ (Emerald Rapids)", Facts{Vendor: "intel", Family: 6, Model: 0xCF, Stepping: 2,
		Brand: "INTEL(R) XEON(R) PLATINUM 8592+", L1D: 48 * kiB, L2: 2 * miB, L3: 320 * miB,
		L1DWays: 12, L2Ways: 16, Features: fSPR}, "emeraldrapids"},
	{"Xeon 6980P (Granite Rapids)", Facts{Vendor: "intel", Family: 6, Model: 0xAD, Stepping: 1,
		Brand: "Intel(R) Xeon(R) 6980P", L1D: 48 * kiB, L2: 2 * miB, L3: 504 * miB,
		L1DWays: 12, L2Ways: 16, Features: fGNR}, "graniterapids"},
	{"Xeon 6780E (Sierra Forest)", Facts{Vendor: "intel", Family: 6, Model: 0xAF, Stepping: 3,
		Brand: "Intel(R) Xeon(R) 6780E", L1D: 32 * kiB, L2: 4 * miB, L3: 108 * miB,
		L1DWays: 8, L2Ways: 16, Features: fADL}, "sierraforest"},
	{"Core i9-12900K (Alder Lake, P-core)", Facts{Vendor: "intel", Family: 6, Model: 0x97, Stepping: 2,
		Brand: "12th Gen Intel(R) Core(TM) i9-12900K", L1D: 48 * kiB, L2: 1280 * kiB, L3: 30 * miB,
		L1DWays: 12, L2Ways: 10, Features: fADL}, "alderlake"},
	{"Core i9-12900K (Alder Lake, E-core)", Facts{Vendor: "intel", Family: 6, Model: 0x97, Stepping: 2,
		Brand: "12th Gen Intel(R) Core(TM) i9-12900K", L1D: 32 * kiB, L2: 2 * miB, L3: 30 * miB,
		L1DWays: 8, L2Ways: 16, Features: fADL}, "alderlake"},
	{"Core i9-13900K (Raptor Lake)", Facts{Vendor: "intel", Family: 6, Model: 0xB7, Stepping: 1,
		Brand: "13th Gen Intel(R) Core(TM) i9-13900K", L1D: 48 * kiB, L2: 2 * miB, L3: 36 * miB,
		L1DWays: 12, L2Ways: 16, Features: fADL}, "raptorlake"},
}

// maskedVMs are guests whose brand or model a hypervisor edited.
var maskedVMs = []nameCase{
	// (a) The reference Intel guest: brand and model masked, features and
	// caches passed through from a Granite Rapids host.
	{"reference Intel guest, model 0", Facts{Vendor: "intel", Family: 6, Model: 0, Stepping: 0,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 480 * miB,
		Features: fGNR}, "graniterapids"},
	{"reference Intel guest, QEMU Skylake-Server model", Facts{Vendor: "intel", Family: 6, Model: 0x55, Stepping: 4,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 480 * miB,
		Features: fGNR}, "graniterapids"},
	{"reference Intel guest, QEMU SapphireRapids model", Facts{Vendor: "intel", Family: 6, Model: 0x8F, Stepping: 4,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 480 * miB,
		Features: fGNR}, "graniterapids"},
	{"reference Intel guest, L3 and AMX-FP16 hidden", Facts{Vendor: "intel", Family: 6, Model: 0,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 480 * miB,
		Features: fSPR}, "graniterapids"},
	// (b) QEMU's Skylake-Server model (6/0x55 stepping 4) on a Sapphire
	// Rapids host with the host's features added.
	{"QEMU Skylake-Server on Sapphire Rapids", Facts{Vendor: "intel", Family: 6, Model: 0x55, Stepping: 4,
		Brand: "Intel Xeon Processor (Skylake)", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 105 * miB,
		Features: fSPR}, "sapphirerapids"},
	{"Sapphire Rapids guest, AMX hidden, model masked", Facts{Vendor: "intel", Family: 6, Model: 0,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 48 * kiB, L2: 2 * miB, L3: 105 * miB,
		Features: fSPRNoAMX}, "sapphirerapids"},
	{"Sapphire Rapids guest, QEMU legacy 4 MiB L2", Facts{Vendor: "intel", Family: 6, Model: 0x8F, Stepping: 4,
		Brand: "Intel Xeon Processor (SapphireRapids)", Hypervisor: true, L1D: 32 * kiB, L2: 4 * miB, L3: 16 * miB,
		Features: fSPR}, "sapphirerapids"},
	{"Ice Lake-SP guest, QEMU Icelake-Server model 0x86", Facts{Vendor: "intel", Family: 6, Model: 0x86, Stepping: 0,
		Brand: "Intel Xeon Processor (Icelake)", Hypervisor: true, L1D: 48 * kiB, L2: 1280 * kiB, L3: 60 * miB,
		Features: fICX}, "icelake-server"},
	{"Cascade Lake guest, model masked", Facts{Vendor: "intel", Family: 6, Model: 0,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 32 * kiB, L2: 1 * miB, L3: 38912 * kiB,
		Features: fCLX}, "cascadelake"},
	{"Skylake-SP guest, model masked", Facts{Vendor: "intel", Family: 6, Model: 0,
		Brand: "Intel(R) Xeon(R) Processor", Hypervisor: true, L1D: 32 * kiB, L2: 1 * miB, L3: 38912 * kiB,
		Features: fSKX}, "skylake-server"},
	// (c) AMD guest with the model masked to 0 in Zen 3/4's family.
	{"Zen 4 guest, model 0", Facts{Vendor: "amd", Family: 0x19, Model: 0, Stepping: 0,
		Brand: "AMD EPYC Processor", Hypervisor: true, L1D: 32 * kiB, L2: 1 * miB, L3: 32 * miB,
		Features: fZen4}, "zen4"},
	{"QEMU EPYC-Genoa model on a Turin host", Facts{Vendor: "amd", Family: 0x19, Model: 0x11, Stepping: 0,
		Brand: "AMD EPYC-Genoa Processor", Hypervisor: true, L1D: 32 * kiB, L2: 1 * miB, L3: 32 * miB,
		Features: fZen5}, "zen5"},
	{"Turin guest, model 0 in family 0x19, VP2INTERSECT hidden", Facts{Vendor: "amd", Family: 0x19, Model: 0,
		Brand: "AMD EPYC", Hypervisor: true, L1D: 48 * kiB, L2: 1 * miB, L3: -1,
		Features: fZen4}, "zen5"},
	// (d) Fully generic QEMU CPUs: qemu64 is family 0x0F model 0x6B and
	// reports QEMU's legacy caches (AMD: 64 KiB L1D, 512 KiB L2; Intel
	// leaf 4: 32 KiB L1D, 4 MiB L2).
	{"qemu64, AMD vendor", Facts{Vendor: "amd", Family: 0x0F, Model: 0x6B, Stepping: 1,
		Brand: "QEMU Virtual CPU version 2.5+", Hypervisor: true, L1D: 64 * kiB, L2: 512 * kiB, L3: 16 * miB},
		"amd-x86-l2-512k"},
	{"qemu64, Intel vendor", Facts{Vendor: "intel", Family: 0x0F, Model: 0x6B, Stepping: 1,
		Brand: "QEMU Virtual CPU version 2.5+", Hypervisor: true, L1D: 32 * kiB, L2: 4 * miB, L3: 16 * miB},
		"intel-x86-l2-4096k"},
	{"Common KVM processor, no caches", Facts{Vendor: "intel", Family: 0x0F, Model: 0x06, Stepping: 1,
		Brand: "Common KVM processor", Hypervisor: true, L1D: -1, L2: -1, L3: -1}, "intel-x86"},
	{"Zen 4 features behind QEMU's EPYC-Rome model (0x17/0x31)", Facts{Vendor: "amd", Family: 0x17, Model: 0x31, Stepping: 0,
		Brand: "AMD EPYC Processor", Hypervisor: true, L1D: 32 * kiB, L2: 512 * kiB, L3: 32 * miB,
		Features: append(slices.Clone(fAVX2), "avx512f")}, "zen4"},
	{"AMD guest without AVX-512, model 0 in Zen 3/4's family", Facts{Vendor: "amd", Family: 0x19, Model: 0,
		Brand: "AMD EPYC Processor", Hypervisor: true, L1D: 32 * kiB, L2: 512 * kiB, L3: 32 * miB,
		Features: fAVX2}, "zen3"},
	{"QEMU Icelake-Server model on a Sapphire Rapids host, newer features hidden", Facts{Vendor: "intel",
		Family: 6, Model: 0x86, Brand: "Intel Xeon Processor (Icelake)", Hypervisor: true,
		L1D: 48 * kiB, L2: 2 * miB, L3: 105 * miB, Features: fICX}, "icelake-server"},
	// Skylake-SP features with a 2 MiB L2: the model is distrusted for
	// its L2, and no Xeon has that pair, so the facts name it.
	{"QEMU Skylake-Server model, Skylake features, 2 MiB L2", Facts{Vendor: "intel", Family: 6, Model: 0x55,
		Stepping: 4, Brand: "Intel Xeon Processor (Skylake)", Hypervisor: true,
		L1D: 32 * kiB, L2: 2 * miB, L3: 16 * miB, Features: fSKX}, "intel-avx512-l2-2048k"},
	// QEMU's legacy 4 MiB L2 fits no AVX-512 Xeon: the facts name it.
	{"Ice Lake feature set with QEMU's 4 MiB L2", Facts{Vendor: "intel", Family: 6, Model: 0x86,
		Brand: "Intel Xeon Processor (Icelake)", Hypervisor: true, L1D: 32 * kiB, L2: 4 * miB, L3: 16 * miB,
		Features: fICX}, "intel-avx512-l2-4096k"},
}

// unknownCPUs are CPUs the table does not know; they get names from
// their facts, never a known name of an older generation.
var unknownCPUs = []nameCase{
	{"Diamond Rapids-like (family 0x13, bare metal)", Facts{Vendor: "intel", Family: 0x13, Model: 0x01,
		Brand: "Intel(R) Xeon(R) 7999X", L1D: 48 * kiB, L2: 4 * miB, L3: 504 * miB,
		Features: fGNR}, "intel-avx512-l2-4096k"},
	{"Zen 6-like (0x1A model 0x50, bare metal)", Facts{Vendor: "amd", Family: 0x1A, Model: 0x50,
		Brand: "AMD EPYC 9999 256-Core Processor", L1D: 48 * kiB, L2: 1 * miB, L3: 32 * miB,
		Features: fZen5}, "amd-avx512-l2-1024k"},
	{"Alder Lake with AVX-512 enabled by an early BIOS", Facts{Vendor: "intel", Family: 6, Model: 0x97, Stepping: 2,
		Brand: "12th Gen Intel(R) Core(TM) i9-12900K", L1D: 48 * kiB, L2: 1280 * kiB, L3: 30 * miB,
		Features: fSPRNoAMX}, "intel-avx512-l2-1280k"},
	// Zen 2 and Zen 3 cannot be told apart from features, so a guest
	// whose family is masked too is named from its facts.
	{"AMD guest without AVX-512, masked family", Facts{Vendor: "amd", Family: 0x0F, Model: 0x6B,
		Brand: "AMD EPYC Processor", Hypervisor: true, L1D: 32 * kiB, L2: 512 * kiB, L3: 32 * miB,
		Features: fAVX2}, "amd-avx2-l2-512k"},
	{"Zhaoxin-like (family 7)", Facts{Vendor: "zhaoxin", Family: 7, Model: 0x1B,
		Brand: "ZHAOXIN KaiXian KX-U6780A@2.7GHz", L1D: 32 * kiB, L2: 4 * miB, L3: -1,
		Features: fAVX2}, "zhaoxin-avx2-l2-4096k"},
	{"Hygon with AVX-512 (not Dhyana)", Facts{Vendor: "hygon", Family: 0x18, Model: 0x07,
		Brand: "Hygon C86-4G", L1D: 32 * kiB, L2: 1 * miB, L3: 32 * miB,
		Features: fZen4}, "hygon-avx512-l2-1024k"},
	{"unknown vendor", Facts{Family: 6, Model: 0x8F, L2: 2 * miB, Features: fSPR}, "cpu-avx512-l2-2048k"},
	{"no facts at all", Facts{}, "cpu-x86"},
	{"odd vendor string", Facts{Vendor: "  Via Via VIA ", L2: 64 * kiB}, "viaviavia-x86-l2-64k"},
	{"vendor starting with a digit", Facts{Vendor: "3dfx", Features: fAVX2}, "cpu3dfx-avx2"},
}

func TestName(t *testing.T) {
	for _, group := range [][]nameCase{realCPUs, maskedVMs, unknownCPUs} {
		for _, c := range group {
			t.Run(c.what, func(t *testing.T) {
				got := Name(c.f)
				if got != c.want {
					t.Errorf("Name = %q, want %q", got, c.want)
				}
				if !Valid(got) {
					t.Errorf("Name = %q is not Valid", got)
				}
			})
		}
	}
}

// An unknown CPU's name carries its vendor, and a known name's vendor is
// the facts' vendor.
func TestNameVendor(t *testing.T) {
	for _, group := range [][]nameCase{realCPUs, maskedVMs, unknownCPUs} {
		for _, c := range group {
			name := Name(c.f)
			want := c.f.Vendor
			if !isKnown(name) && (want == "" || cleanVendor(want) != want) {
				continue
			}
			if got := Vendor(name); got != want {
				t.Errorf("%s: Vendor(%q) = %q, want %q", c.what, name, got, want)
			}
		}
	}
}

// The "unknown CPUs" above must not be given a known name.
func TestUnknownCPUsAreUnknown(t *testing.T) {
	for _, c := range unknownCPUs {
		if name := Name(c.f); isKnown(name) {
			t.Errorf("%s: Name = %q, a known name", c.what, name)
		}
	}
}

func isKnown(name string) bool {
	_, ok := slices.BinarySearch(Known(), name)
	return ok
}

func TestValid(t *testing.T) {
	good := []string{"a", "zen5", "skylake-server", "intel-avx512-l2-2048k", "cpu-x86",
		strings.Repeat("a", 40), "a-b-c", "x0"}
	bad := []string{"", "-", "5zen", "-zen", "zen-", "zen--5", "Zen5", "zen.5", "zen_5", "zen 5",
		strings.Repeat("a", 41), "zen/5", "zén", "a\x00", "a-", "0"}
	for _, s := range good {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false, want true", s)
		}
	}
	for _, s := range bad {
		if Valid(s) {
			t.Errorf("Valid(%q) = true, want false", s)
		}
	}
}

func TestVendor(t *testing.T) {
	cases := map[string]string{
		"zen":                   "amd",
		"zen5":                  "amd",
		"dhyana":                "hygon",
		"skylake-server":        "intel",
		"graniterapids":         "intel",
		"intel-avx512-l2-2048k": "intel",
		"amd-avx2-l2-512k":      "amd",
		"hygon-avx2":            "hygon",
		"zhaoxin-x86-l2-4096k":  "zhaoxin",
		"via-x86":               "via",
		"acme-avx512-l2-1024k":  "acme",
		"cpu-x86":               "",
		"cpu-avx2-l2-512k":      "",
		"intel":                 "intel",
		"acme":                  "",
		"acme-sse4":             "",
		"acme-avx2x":            "",
		"neoverse-v2":           "",
		"Intel-avx2":            "",
		"":                      "",
		"intel--avx2":           "",
	}
	for name, want := range cases {
		if got := Vendor(name); got != want {
			t.Errorf("Vendor(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestKnown(t *testing.T) {
	known := Known()
	if !slices.IsSorted(known) || len(slices.Compact(slices.Clone(known))) != len(known) {
		t.Fatalf("Known() = %v: not sorted and unique", known)
	}
	inTable := map[string]bool{}
	for _, m := range models {
		inTable[m.name] = true
		if _, ok := profiles[m.name]; !ok {
			t.Errorf("model table names %q, which has no profile", m.name)
		}
	}
	for _, n := range known {
		if !Valid(n) {
			t.Errorf("known name %q is not Valid", n)
		}
		if Vendor(n) == "" {
			t.Errorf("Vendor(%q) = \"\"", n)
		}
		if !inTable[n] {
			t.Errorf("known name %q is in no model table row", n)
		}
	}
	for _, want := range []string{"zen", "zen2", "zen3", "zen4", "zen5", "dhyana", "haswell", "broadwell",
		"skylake", "skylake-server", "cascadelake", "cooperlake", "icelake", "icelake-server", "tigerlake",
		"sapphirerapids", "emeraldrapids", "graniterapids", "sierraforest", "alderlake", "raptorlake",
		"meteorlake", "arrowlake", "lunarlake"} {
		if !slices.Contains(known, want) {
			t.Errorf("Known() lacks %q", want)
		}
	}
	// Known returns a copy.
	known[0] = "changed"
	if Known()[0] == "changed" {
		t.Error("Known() shares its slice")
	}
}

// Every family/model/stepping maps to at most one name, and every known
// name that is reached by a consistent recorded CPU is exercised above.
func TestModelTableHasNoOverlap(t *testing.T) {
	for _, vendor := range []string{"intel", "amd", "hygon"} {
		for family := 0; family <= 0x20; family++ {
			for model := 0; model <= 0xFF; model++ {
				for step := 0; step <= 0xF; step++ {
					var names []string
					for _, m := range models {
						if m.vendor == vendor && m.family == family && m.modelLo <= model &&
							model <= m.modelHi && m.stepLo <= step && step <= m.stepHi {
							names = append(names, m.name)
						}
					}
					if len(names) > 1 {
						t.Fatalf("%s %#x/%#x stepping %d: %v", vendor, family, model, step, names)
					}
				}
			}
		}
	}
}

// spelled are the feature names Facts uses; the profiles and FromCPUID
// must use no other (a misspelt name would never match).
var spelled = []string{"avx2", "fma", "avx512f", "avx512vl", "avx512bw", "avx512vnni", "avx512bf16",
	"avx512fp16", "avx512vp2intersect", "avx-vnni", "amx-tile", "amx-bf16", "amx-fp16", "amx-complex", "avx10"}

func TestFeatureSpellings(t *testing.T) {
	for name, p := range profiles {
		for _, x := range append(slices.Clone(p.must), p.mustNot...) {
			if !slices.Contains(spelled, x) {
				t.Errorf("profile %q uses feature %q, not one Facts spells", name, x)
			}
		}
	}
	var got []string
	for _, x := range cpuidFeatures {
		got = append(got, x.name)
	}
	if !slices.Equal(got, spelled) {
		t.Errorf("FromCPUID spells %v, want %v", got, spelled)
	}
}

// randomFacts draws facts from values real and masked CPUs report plus
// nonsense (negative sizes, odd vendor strings, huge numbers).
func randomFacts(r *rand.Rand) Facts {
	vendors := []string{"intel", "amd", "hygon", "zhaoxin", "", "via", "  Shanghai  ", "GenuineIntel",
		"3dfx", "ünïcode", "--", strings.Repeat("longvendor", 8), "cpu", "a-b"}
	sizes := []int{-1, 0, 1, 1023, 32 * kiB, 48 * kiB, 256 * kiB, 512 * kiB, 1 * miB, 1280 * kiB,
		2 * miB, 4 * miB, 105 * miB, 320 * miB, 504 * miB, math.MaxInt / 3, math.MaxInt}
	f := Facts{
		Vendor:     vendors[r.IntN(len(vendors))],
		Family:     []int{0, 5, 6, 0x0F, 0x13, 0x17, 0x18, 0x19, 0x1A, 0x1B, -1, 1 << 30}[r.IntN(12)],
		Model:      r.IntN(0x120) - 0x10,
		Stepping:   r.IntN(20) - 2,
		Brand:      []string{"", "Intel(R) Xeon(R) Processor", "AMD EPYC", "QEMU Virtual CPU version 2.5+", "x"}[r.IntN(5)],
		Hypervisor: r.IntN(2) == 0,
		L1D:        sizes[r.IntN(len(sizes))],
		L2:         sizes[r.IntN(len(sizes))],
		L3:         sizes[r.IntN(len(sizes))],
	}
	for _, x := range spelled {
		if r.IntN(3) == 0 {
			f.Features = append(f.Features, x)
		}
	}
	if r.IntN(10) == 0 {
		f.Features = append(f.Features, "AVX512F", " bogus ", "")
	}
	return f
}

func checkName(t *testing.T, f Facts) {
	t.Helper()
	name := Name(f)
	if !Valid(name) {
		t.Fatalf("Name(%+v) = %q, not Valid", f, name)
	}
	if Name(f) != name {
		t.Fatalf("Name(%+v) is not deterministic", f)
	}
	want := cleanVendor(f.Vendor)
	if isKnown(name) {
		want = profiles[name].vendor
		if want != f.Vendor {
			t.Fatalf("Name(%+v) = %q, a name of vendor %q", f, name, want)
		}
	} else if want == unknownVendor {
		want = ""
	}
	if got := Vendor(name); got != want {
		t.Fatalf("Name(%+v) = %q: Vendor = %q, want %q", f, name, got, want)
	}
}

func TestNameRandomFacts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		checkName(t, randomFacts(r))
	}
}

// FuzzName checks Name on arbitrary facts; its seed corpus runs in go
// test.
func FuzzName(f *testing.F) {
	for _, group := range [][]nameCase{realCPUs, maskedVMs, unknownCPUs} {
		for _, c := range group {
			var bits uint16
			for i, x := range spelled {
				if slices.Contains(c.f.Features, x) {
					bits |= 1 << i
				}
			}
			f.Add(c.f.Vendor, c.f.Family, c.f.Model, c.f.Stepping, c.f.Brand, c.f.Hypervisor,
				c.f.L1D, c.f.L2, c.f.L3, bits)
		}
	}
	f.Fuzz(func(t *testing.T, vendor string, family, model, stepping int, brand string, hyp bool,
		l1d, l2, l3 int, bits uint16) {
		fa := Facts{Vendor: vendor, Family: family, Model: model, Stepping: stepping, Brand: brand,
			Hypervisor: hyp, L1D: l1d, L2: l2, L3: l3}
		for i, x := range spelled {
			if bits&(1<<i) != 0 {
				fa.Features = append(fa.Features, x)
			}
		}
		checkName(t, fa)
	})
}
