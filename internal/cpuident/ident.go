package cpuident

import (
	"slices"
	"strconv"
	"strings"
)

// Facts are the CPU facts an identity is derived from.
type Facts struct {
	Vendor     string // "intel", "amd", or another lower-case vendor ("hygon", "zhaoxin", ...); "" when unknown
	Family     int    // display family (base family + extended family), e.g. 6 (Intel), 0x19 (Zen 3/4), 0x1A (Zen 5)
	Model      int    // display model (extended model << 4 | base model), e.g. 0x8F
	Stepping   int
	Brand      string // brand string, may be masked by a hypervisor
	Hypervisor bool   // running under a hypervisor

	L1D, L2, L3     int // bytes per core (L1D, L2) and shared (L3); <= 0 when not reported
	L1DWays, L2Ways int // associativity; 0 when not reported

	Features []string // lower-case feature names ("avx2", "avx512f", "amx-tile", ...)
}

// Name returns the identity: a known microarchitecture name, or, for a CPU
// it does not know, a name built from the vendor and facts. Never empty,
// never an error, always Valid.
func Name(f Facts) string {
	fs := newFeatureSet(f.Features)
	name, found := lookupModel(f)
	if found && consistent(name, f, fs) {
		return name
	}
	// A known model the facts contradict was masked by a hypervisor; an
	// unknown one is only worth inferring from features when the CPU
	// looks virtualised, since a real unknown model is a newer CPU.
	if found || looksMasked(f) {
		if n := infer(f, fs); n != "" {
			return n
		}
	}
	return unknownName(f, fs)
}

// Vendor returns the vendor of an identity name: "amd", "intel", or the
// vendor prefix of a name Name built for an unknown CPU ("hygon-..." ->
// "hygon"); "" when the name says nothing about its vendor.
func Vendor(name string) string {
	if p, ok := profiles[name]; ok {
		return p.vendor
	}
	if !Valid(name) {
		return ""
	}
	prefix, rest, _ := strings.Cut(name, "-")
	if prefix == unknownVendor {
		return ""
	}
	switch prefix {
	case "intel", "amd", "hygon", "zhaoxin":
		return prefix
	}
	isa, _, _ := strings.Cut(rest, "-")
	switch isa {
	case "avx512", "avx2", "x86":
		return prefix
	}
	return ""
}

// Known lists every microarchitecture name Name can return for a known
// CPU, sorted.
func Known() []string {
	names := make([]string, 0, len(profiles))
	for n := range profiles {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// maxLen bounds an identity: it is one part of a table's file name.
const maxLen = 40

// Valid reports whether s can be an identity in a file name: 1 to 40
// bytes of [a-z0-9-], starting with a letter, not ending with '-', no
// "--". Dots are refused because table files are named
// <op>.<level>.<identity>.txt.
func Valid(s string) bool {
	if len(s) == 0 || len(s) > maxLen || s[0] < 'a' || s[0] > 'z' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-':
			if s[i-1] == '-' {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// featureSet holds the facts' features for lookup.
type featureSet map[string]bool

func newFeatureSet(names []string) featureSet {
	fs := make(featureSet, len(names))
	for _, n := range names {
		fs[strings.ToLower(strings.TrimSpace(n))] = true
	}
	return fs
}

// kib converts a cache size in bytes to KiB, 0 when not reported.
func kib(bytes int) int {
	if bytes <= 0 {
		return 0
	}
	return bytes / 1024
}

// looksMasked reports facts that a hypervisor has (or may have) edited:
// the hypervisor bit, model 0, or a brand string with no model in it.
func looksMasked(f Facts) bool {
	return f.Hypervisor || f.Model == 0 || genericBrand(f.Brand)
}

func genericBrand(brand string) bool {
	b := strings.ToLower(strings.Join(strings.Fields(brand), " "))
	switch b {
	case "", "intel(r) xeon(r) processor", "intel(r) xeon(r) cpu", "amd epyc", "amd epyc processor", "amd processor":
		return true
	}
	return strings.Contains(b, "qemu") || strings.Contains(b, "kvm") || strings.Contains(b, "virtual")
}

// unknownVendor stands for an empty vendor; Vendor maps it back to "".
const unknownVendor = "cpu"

// maxVendorLen keeps the longest name Name builds, with an 8-digit L2,
// within maxLen.
const (
	maxVendorLen = 16
	maxL2KiB     = 99_999_999
)

// unknownName builds <vendor>-<isa>-l2-<n>k (or <vendor>-<isa> when the
// L2 is not reported) for a CPU Name cannot name.
func unknownName(f Facts, fs featureSet) string {
	isa := "x86"
	switch {
	case fs["avx512f"]:
		isa = "avx512"
	case fs["avx2"] && fs["fma"]:
		isa = "avx2"
	}
	name := cleanVendor(f.Vendor) + "-" + isa
	if l2 := kib(f.L2); l2 > 0 && l2 <= maxL2KiB {
		name += "-l2-" + strconv.Itoa(l2) + "k"
	}
	return name
}

// cleanVendor reduces a vendor to at most maxVendorLen bytes of [a-z0-9]
// starting with a letter, "cpu" when nothing is left.
func cleanVendor(v string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(v) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	s := b.String()
	switch {
	case s == "":
		return unknownVendor
	case s[0] < 'a':
		// Starts with a digit: keep it recognisably a vendor word.
		s = unknownVendor + s
	}
	if len(s) > maxVendorLen {
		s = s[:maxVendorLen]
	}
	return s
}
