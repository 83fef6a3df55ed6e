package cpuident

// Model numbers follow Linux's arch/x86/include/asm/intel-family.h and the
// family/model ranges of arch/x86/kernel/cpu/amd.c (bsp_init_amd); L2
// sizes are the per-core (or per-module, for Intel E-cores) sizes the
// vendors publish.

// model maps a vendor, a display family, a range of display models and a
// range of steppings to a microarchitecture name.
type model struct {
	vendor           string
	family           int
	modelLo, modelHi int
	stepLo, stepHi   int
	name             string
}

// anyStep covers every stepping a 4-bit field can hold, with room to spare.
const anyStep = 0xFF

// intel6 lists family-6 models, one row per model number unless the
// stepping splits it (model 0x55 is three server generations).
func intel6(name string, models ...int) []model {
	rows := make([]model, len(models))
	for i, m := range models {
		rows[i] = model{"intel", 6, m, m, 0, anyStep, name}
	}
	return rows
}

var models = concat(
	intel6("haswell", 0x3C, 0x3F, 0x45, 0x46),
	intel6("broadwell", 0x3D, 0x47, 0x4F, 0x56),
	// Skylake client and its refreshes (Kaby, Coffee, Whiskey, Comet Lake)
	// share the core and the 256 KiB L2.
	intel6("skylake", 0x4E, 0x5E, 0x8E, 0x9E, 0xA5, 0xA6),
	[]model{
		{"intel", 6, 0x55, 0x55, 0, 4, "skylake-server"},
		{"intel", 6, 0x55, 0x55, 5, 7, "cascadelake"},
		{"intel", 6, 0x55, 0x55, 10, anyStep, "cooperlake"},
	},
	intel6("cannonlake", 0x66),
	intel6("icelake", 0x7D, 0x7E),
	intel6("icelake-server", 0x6A, 0x6C),
	intel6("rocketlake", 0xA7),
	intel6("tigerlake", 0x8C, 0x8D),
	intel6("sapphirerapids", 0x8F),
	intel6("emeraldrapids", 0xCF),
	intel6("graniterapids", 0xAD, 0xAE),
	intel6("sierraforest", 0xAF),
	// 0xBE is Alder Lake-N (Gracemont cores only).
	intel6("alderlake", 0x97, 0x9A, 0xBE),
	// 0xD7 is Bartlett Lake (Raptor Cove cores only).
	intel6("raptorlake", 0xB7, 0xBA, 0xBF, 0xD7),
	intel6("meteorlake", 0xAA, 0xAC),
	intel6("arrowlake", 0xC5, 0xC6, 0xB5),
	intel6("lunarlake", 0xBD),
	intel6("pantherlake", 0xCC),
	[]model{
		// Family 0x17: Zen and Zen+ below 0x30, Zen 2 from there on.
		{"amd", 0x17, 0x00, 0x2F, 0, anyStep, "zen"},
		{"amd", 0x17, 0x30, 0xFF, 0, anyStep, "zen2"},
		{"amd", 0x19, 0x00, 0x0F, 0, anyStep, "zen3"},
		{"amd", 0x19, 0x20, 0x5F, 0, anyStep, "zen3"},
		{"amd", 0x19, 0x10, 0x1F, 0, anyStep, "zen4"},
		{"amd", 0x19, 0x60, 0xAF, 0, anyStep, "zen4"},
		// Family 0x1A: 0x30-0x3F is unassigned and 0x50-0x5F, 0x80-0xAF
		// and 0xC0-0xCF are Zen 6, so they are left unknown rather than
		// named after the older core.
		{"amd", 0x1A, 0x00, 0x2F, 0, anyStep, "zen5"},
		{"amd", 0x1A, 0x40, 0x4F, 0, anyStep, "zen5"},
		{"amd", 0x1A, 0x60, 0x7F, 0, anyStep, "zen5"},
		// Hygon's Dhyana is a licensed Zen core.
		{"hygon", 0x18, 0x00, 0xFF, 0, anyStep, "dhyana"},
	},
)

func concat(parts ...[]model) []model {
	var all []model
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

// lookupModel returns the name the table gives the facts' vendor, family,
// model and stepping.
func lookupModel(f Facts) (string, bool) {
	for _, m := range models {
		if m.vendor == f.Vendor && m.family == f.Family &&
			m.modelLo <= f.Model && f.Model <= m.modelHi &&
			m.stepLo <= f.Stepping && f.Stepping <= m.stepHi {
			return m.name, true
		}
	}
	return "", false
}

// profile is what a generation must look like for a model match to be
// believed. must holds the vector ISA its tables were measured with;
// mustNot holds features that only later generations have, so a newer
// host behind an old model number is caught. The L2 range (KiB, per core
// or per E-core module) is checked only when the L2 is reported.
type profile struct {
	vendor       string
	must         []string
	mustNot      []string
	l2Min, l2Max int
}

var (
	avx2Base = []string{"avx2", "fma"}
	// AVX-512 and AMX on a CPU named after a generation without them.
	noAVX512 = []string{"avx512f", "avx-vnni", "amx-tile", "amx-fp16"}
	// Features that arrived after Ice Lake / Tiger Lake on Intel servers.
	afterIceLake = []string{"avx512bf16", "avx512fp16", "avx-vnni", "amx-tile", "amx-bf16", "amx-fp16", "amx-complex"}
	// Hybrid clients: no AVX-512 (fused off) and no AMX.
	clientHybridNot = []string{"avx512f", "amx-tile", "amx-fp16"}
)

func with(base []string, more ...string) []string {
	return append(append([]string(nil), base...), more...)
}

var profiles = map[string]profile{
	"haswell":   {"intel", avx2Base, noAVX512, 256, 256},
	"broadwell": {"intel", avx2Base, noAVX512, 256, 256},
	"skylake":   {"intel", avx2Base, noAVX512, 256, 256},
	"skylake-server": {"intel", []string{"avx512f", "avx512vl", "avx512bw"},
		with(afterIceLake, "avx512vnni", "avx512vp2intersect"), 1024, 1024},
	"cascadelake": {"intel", []string{"avx512f", "avx512vnni"},
		with(afterIceLake, "avx512vp2intersect"), 1024, 1024},
	// Cooper Lake added BF16 and nothing else of the later features.
	"cooperlake": {"intel", []string{"avx512f", "avx512vnni"},
		[]string{"avx512fp16", "avx512vp2intersect", "avx-vnni", "amx-tile", "amx-fp16"}, 1024, 1024},
	"cannonlake": {"intel", []string{"avx512f"},
		with(afterIceLake, "avx512vnni", "avx512vp2intersect"), 256, 256},
	"icelake":        {"intel", []string{"avx512f", "avx512vnni"}, with(afterIceLake, "avx512vp2intersect"), 512, 512},
	"rocketlake":     {"intel", []string{"avx512f", "avx512vnni"}, with(afterIceLake, "avx512vp2intersect"), 512, 512},
	"icelake-server": {"intel", []string{"avx512f", "avx512vnni"}, with(afterIceLake, "avx512vp2intersect"), 1280, 1280},
	// Tiger Lake has VP2INTERSECT, which the Xeons after it do not.
	"tigerlake": {"intel", []string{"avx512f", "avx512vnni"}, afterIceLake, 1280, 1280},
	// AMX is not required: hypervisors that cannot save tile state hide
	// it while passing the real model through.
	"sapphirerapids": {"intel", []string{"avx512f"}, []string{"avx512vp2intersect", "amx-fp16", "amx-complex"}, 2048, 2048},
	"emeraldrapids":  {"intel", []string{"avx512f"}, []string{"avx512vp2intersect", "amx-fp16", "amx-complex"}, 2048, 2048},
	"graniterapids":  {"intel", []string{"avx512f"}, []string{"avx512vp2intersect"}, 2048, 2048},
	// Sierra Forest's E-cores share 4 MiB of L2 per four-core module.
	"sierraforest": {"intel", avx2Base, clientHybridNot, 2048, 4096},
	// Hybrid clients report the L2 of the core the query ran on: 1.25 to
	// 3 MiB on P-cores, 2 to 4 MiB per E-core module.
	"alderlake":   {"intel", avx2Base, clientHybridNot, 1024, 2048},
	"raptorlake":  {"intel", avx2Base, clientHybridNot, 1024, 4096},
	"meteorlake":  {"intel", avx2Base, clientHybridNot, 1024, 4096},
	"arrowlake":   {"intel", avx2Base, clientHybridNot, 1024, 4096},
	"lunarlake":   {"intel", avx2Base, clientHybridNot, 1024, 4096},
	"pantherlake": {"intel", avx2Base, clientHybridNot, 1024, 4096},

	"zen":  {"amd", avx2Base, with(noAVX512, "avx512vp2intersect"), 512, 512},
	"zen2": {"amd", avx2Base, with(noAVX512, "avx512vp2intersect"), 512, 512},
	"zen3": {"amd", avx2Base, with(noAVX512, "avx512vp2intersect"), 512, 512},
	// Zen 5 brought VP2INTERSECT and VEX AVX-VNNI; Zen 4 has neither.
	"zen4": {"amd", []string{"avx512f"}, []string{"avx512vp2intersect", "avx-vnni", "avx512fp16", "amx-tile"}, 1024, 1024},
	"zen5": {"amd", []string{"avx512f"}, []string{"avx512fp16", "amx-tile"}, 1024, 1024},

	"dhyana": {"hygon", avx2Base, with(noAVX512, "avx512vp2intersect"), 512, 512},
}

// consistent reports whether the facts agree with the profile of name.
func consistent(name string, f Facts, fs featureSet) bool {
	p, ok := profiles[name]
	if !ok || p.vendor != f.Vendor {
		return false
	}
	for _, x := range p.must {
		if !fs[x] {
			return false
		}
	}
	for _, x := range p.mustNot {
		if fs[x] {
			return false
		}
	}
	if l2 := kib(f.L2); l2 > 0 && (l2 < p.l2Min || l2 > p.l2Max) {
		return false
	}
	return true
}
