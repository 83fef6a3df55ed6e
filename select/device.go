package sel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/batchlas-go/batchlas/internal/cpuident"
	"github.com/batchlas-go/batchlas/internal/quote"
)

// Class is the class of a device: cpu or gpu. A cpu device never reads a
// gpu table, nor the reverse.
type Class string

const (
	CPU Class = "cpu"
	GPU Class = "gpu"
)

// Device holds the facts of the device a call runs on, in four kinds:
// identity (picks tables, never gates), capability flags and limits (hard
// gates read by can_run), and performance characteristics (never gate; may
// shape a driver's internal blocking). The core only reads these facts;
// detection lives outside it (batchlas.Host).
type Device struct {
	// Identity.
	Key    string // x86-64-v4, arm64, sm_90
	Family string // x86-64, arm64, sm
	Arch   int    // 4 for x86-64-v4, 90 for sm_90
	Class  Class
	Name   string // marketing name
	// Identity is the microarchitecture (zen5, sapphirerapids, ...), or
	// a name built from the vendor and facts for a CPU the detection
	// does not know; "" when there is none (a device built by hand, a
	// non-x86 host). It picks the device's own tables,
	// <op>.<key>.<identity>.txt, ahead of the level's <op>.<key>.txt;
	// like the key, it never gates.
	Identity string

	// Capability flags, sorted: avx2, fma, avx512f, fp64, vendor:blas, ...
	Flags []string
	// Limits: maximum workgroup, shared memory, ...
	Limits map[string]int64

	// Performance characteristics.
	Cores    int
	L1D      int // bytes per core
	L2       int // bytes per core
	L1DWays  int // associativity of L1D (0: not reported)
	L2Ways   int // associativity of L2 (0: not reported)
	L3       int // bytes, shared
	ClockMHz int
}

// Has reports whether the device has the capability flag. It does not rely
// on Flags being sorted: a device built by hand with unsorted flags must not
// silently lose a capability (only the slow path of a decision calls it).
func (d *Device) Has(flag string) bool {
	return slices.Contains(d.Flags, flag)
}

// Limit returns a limit, or 0 when the device declares none.
func (d *Device) Limit(name string) int64 { return d.Limits[name] }

// WithKey returns a copy of d that presents itself under another identity
// (tables only: flags, limits and performance facts stay as they are).
func (d *Device) WithKey(key string) (*Device, error) {
	fam, arch, class, err := ParseDeviceKey(key)
	if err != nil {
		return nil, err
	}
	c := *d
	c.Key, c.Family, c.Arch, c.Class = key, fam, arch, class
	return &c, nil
}

// WithIdentity returns a copy of d that presents itself as another
// microarchitecture (tables only, like WithKey). The name must be valid in
// a table file name: lower-case letters, digits and single '-', starting
// with a letter, at most 40 bytes.
func (d *Device) WithIdentity(name string) (*Device, error) {
	if !cpuident.Valid(name) {
		return nil, fmt.Errorf("identity %s: want lower-case letters, digits and single '-', starting with a letter, at most 40 bytes (zen5, sapphirerapids, intel-avx512-l2-2048k)", quote.Q(name))
	}
	c := *d
	c.Identity = name
	return &c, nil
}

// Label names the device as its own table does: the key, then the
// identity when it has one (x86-64-v4.zen5).
func (d *Device) Label() string {
	if d.Identity == "" {
		return d.Key
	}
	return d.Key + "." + d.Identity
}

// familyOrder is the fixed order in which other families of the same class
// are borrowed from (docs/select.md, "Borrow order").
var familyOrder = map[Class][]string{
	CPU: {"x86-64", "arm64"},
	GPU: {"sm", "gfx"},
}

// ParseDeviceKey splits a device key into family, architecture number and
// class: x86-64-v4 -> (x86-64, 4, cpu); arm64 -> (arm64, 0, cpu);
// sm_90 -> (sm, 90, gpu); gfx90a -> (gfx, 0x90a, gpu). Keys are
// [a-z0-9_-]+ and contain no dots. A key that starts like a family the core
// knows must be spelt as that family (x86-64 or x86-64-v<level>, arm64 or
// arm64-v<n>, sm_<arch>, gfx<arch>): x86_64_v4, sm90 or amd64 are errors,
// not families of their own. Any other key is its own family, architecture
// 0, a cpu (riscv64, ppc64le).
func ParseDeviceKey(key string) (family string, arch int, class Class, err error) {
	bad := func(want string) (string, int, Class, error) {
		return "", 0, "", fmt.Errorf("device key %s: want %s", quote.Q(key), want)
	}
	if key == "" || strings.ContainsFunc(key, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) {
		return bad("lower-case letters, digits, '-' or '_' (x86-64-v4, arm64, sm_90)")
	}
	switch {
	case key == "x86-64":
		return "x86-64", 1, CPU, nil
	case strings.HasPrefix(key, "x86") || key == "amd64":
		n, ok := number(strings.CutPrefix(key, "x86-64-v"))
		if !ok {
			return bad("x86-64 or x86-64-v<level> (e.g. x86-64-v4)")
		}
		return "x86-64", n, CPU, nil
	case key == "arm64":
		return "arm64", 0, CPU, nil
	case strings.HasPrefix(key, "arm64") || key == "aarch64":
		n, ok := number(strings.CutPrefix(key, "arm64-v"))
		if !ok {
			return bad("arm64 or arm64-v<n> (e.g. arm64-v9)")
		}
		return "arm64", n, CPU, nil
	case key == "sm" || strings.HasPrefix(key, "sm") && strings.ContainsRune("0123456789_-", rune(key[2])):
		n, ok := number(strings.CutPrefix(key, "sm_"))
		if !ok {
			return bad("sm_<arch> (e.g. sm_90)")
		}
		return "sm", n, GPU, nil
	case strings.HasPrefix(key, "gfx"):
		n, e := strconv.ParseInt(key[3:], 16, 32)
		if e != nil {
			return bad("gfx<arch> (e.g. gfx90a)")
		}
		return "gfx", int(n), GPU, nil
	}
	// An unknown key is its own family, architecture 0, a cpu.
	return key, 0, CPU, nil
}

// number parses the positive decimal number that follows a prefix, written
// without leading zeros; ok is false when the prefix was not there.
func number(s string, found bool) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, found && err == nil && n >= 1 && strconv.Itoa(n) == s
}
