package cpuident

// Step 2: name a CPU from its features and cache geometry when its model
// number cannot be used. Each function checks newest first and returns ""
// unless the facts are decisive, so that a guest is not named after a
// generation older than its host's when a newer one fits as well.

func infer(f Facts, fs featureSet) string {
	switch f.Vendor {
	case "intel":
		return inferIntel(f, fs)
	case "amd":
		return inferAMD(f, fs)
	}
	return ""
}

// Sizes in KiB that separate the Xeon generations: Emerald Rapids has up
// to 320 MiB of L3 and Sapphire Rapids up to 112.5 MiB, while Granite
// Rapids has up to 504 MiB.
const (
	l3EmeraldMin = 128 * 1024 // above any Sapphire Rapids
	l3GraniteMin = 320 * 1024 // above any Emerald Rapids
)

func inferIntel(f Facts, fs featureSet) string {
	l2, l3 := kib(f.L2), kib(f.L3)
	// AMX-FP16 and AMX-COMPLEX are Granite Rapids' additions to AMX.
	if fs["amx-fp16"] || fs["amx-complex"] {
		return "graniterapids"
	}
	if fs["amx-tile"] {
		return rapidsByL3(l3)
	}
	if !fs["avx512f"] || !fs["avx512vl"] || !fs["avx512bw"] {
		// No server AVX-512 (Xeon Phi has AVX-512F without VL and BW):
		// AVX2-only Intel CPUs share too much to be told apart here.
		return ""
	}
	if fs["avx512vp2intersect"] {
		// Only Tiger Lake has it, a client this step does not name.
		return ""
	}
	// A hypervisor that cannot save AMX tile state hides AMX but keeps
	// AVX512-FP16 (Sapphire Rapids and later only) or, on older
	// hypervisors, BF16, which only Cooper Lake has with a 1 MiB L2.
	if (fs["avx512fp16"] && (l2 == 0 || l2 >= 2048)) || (fs["avx512bf16"] && l2 >= 2048) {
		return rapidsByL3(l3)
	}
	if fs["avx512fp16"] {
		// FP16 with a small L2 (Alder Lake with AVX-512 enabled) is not
		// a server this step can name.
		return ""
	}
	if fs["avx512bf16"] {
		if fs["avx512vnni"] && l2 == 1024 {
			return "cooperlake"
		}
		return ""
	}
	if fs["avx-vnni"] || fs["amx-bf16"] {
		// Features of Alder Lake and later without their FP16 or AMX.
		return ""
	}
	switch {
	case fs["avx512vnni"] && l2 >= 1280 && l2 <= 2048:
		// Ice Lake-SP has 1.25 MiB; up to 2 MiB covers an Ice Lake
		// feature set offered on a later host, which still runs the
		// Ice Lake kernels best among the names this step can give.
		return "icelake-server"
	case fs["avx512vnni"] && l2 == 1024:
		return "cascadelake"
	case !fs["avx512vnni"] && l2 == 1024:
		return "skylake-server"
	}
	return ""
}

// rapidsByL3 tells the AMX Xeons apart by their L3, the one reported
// fact that differs between them. An L3 that is not reported, or that a
// hypervisor shrank, gives the oldest of them.
func rapidsByL3(l3 int) string {
	switch {
	case l3 > l3GraniteMin:
		return "graniterapids"
	case l3 > l3EmeraldMin:
		return "emeraldrapids"
	}
	return "sapphirerapids"
}

func inferAMD(f Facts, fs featureSet) string {
	// Zen, Zen 2 and Zen 3 differ in nothing these facts hold, so an AMD
	// CPU without AVX-512 is left to step 3.
	if !fs["avx512f"] {
		return ""
	}
	// FP16 and AMX are in no Zen 4 or Zen 5: a later core.
	if fs["avx512fp16"] || fs["amx-tile"] || fs["avx10"] {
		return ""
	}
	// Zen 5 added VP2INTERSECT and AVX-VNNI and grew the L1D from 32 KiB
	// (8-way) to 48 KiB (12-way).
	if fs["avx512vp2intersect"] || fs["avx-vnni"] || f.L1D == 48*1024 {
		return "zen5"
	}
	return "zen4"
}
