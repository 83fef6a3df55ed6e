package batchlas

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/cpuid/v2"

	"github.com/batchlas-go/batchlas/internal/cpuident"
	sel "github.com/batchlas-go/batchlas/select"
)

// gatingFlags are the CPU features kernels may gate on, spelled as in
// device flags.
var gatingFlags = []struct {
	name string
	id   cpuid.FeatureID
}{
	{"sse2", cpuid.SSE2}, {"sse4_2", cpuid.SSE42}, {"avx", cpuid.AVX}, {"avx2", cpuid.AVX2},
	{"fma", cpuid.FMA3}, {"avx512f", cpuid.AVX512F}, {"avx512vl", cpuid.AVX512VL},
	{"asimd", cpuid.ASIMD},
}

var host struct {
	once sync.Once
	dev  *sel.Device
}

// Host returns the host CPU as a device, detected once per process.
// BATCHLAS_DEVICE=<key> makes it present itself as another level and
// BATCHLAS_IDENTITY=<name> as another microarchitecture (zen5,
// sapphirerapids): tables are looked up for that key and identity, while
// flags, limits and performance facts stay as detected (so borrowing and
// another CPU's tables can be exercised on one machine). A malformed value
// is reported once as a warning (stderr, or the writer SetWarnOutput
// gives) and ignored.
func Host() *sel.Device {
	host.once.Do(func() {
		d := detectHost()
		if key := strings.TrimSpace(os.Getenv("BATCHLAS_DEVICE")); key != "" {
			if d2, err := d.WithKey(key); err != nil {
				sel.WarnOnce("BATCHLAS_DEVICE", fmt.Sprintf("batchlas: ignoring BATCHLAS_DEVICE: %v", err))
			} else {
				d = d2
			}
		}
		if id := strings.TrimSpace(os.Getenv("BATCHLAS_IDENTITY")); id != "" {
			if d2, err := d.WithIdentity(id); err != nil {
				sel.WarnOnce("BATCHLAS_IDENTITY", fmt.Sprintf("batchlas: ignoring BATCHLAS_IDENTITY: %v", err))
			} else {
				d = d2
			}
		}
		host.dev = d
	})
	return host.dev
}

// detectHost reads the host CPU's facts with cpuid, ignoring
// BATCHLAS_DEVICE and BATCHLAS_IDENTITY.
func detectHost() *sel.Device {
	c := cpuid.CPU
	d := &sel.Device{
		Class:    sel.CPU,
		Name:     strings.TrimSpace(c.BrandName),
		Cores:    runtime.NumCPU(),
		L1D:      c.Cache.L1D,
		L2:       c.Cache.L2,
		L3:       c.Cache.L3,
		ClockMHz: int(c.Hz / 1e6),
		Limits:   map[string]int64{},
	}
	d.L1DWays, d.L2Ways = cacheWays()
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "386" {
		f := cpuident.FromCPUID(&c)
		f.L1DWays, f.L2Ways = d.L1DWays, d.L2Ways
		d.Identity = cpuident.Name(f)
	}
	if d.Name == "" {
		d.Name = runtime.GOARCH
	}
	switch runtime.GOARCH {
	case "amd64":
		lvl := max(1, c.X64Level())
		d.Key, d.Family, d.Arch = fmt.Sprintf("x86-64-v%d", lvl), "x86-64", lvl
	case "arm64":
		d.Key, d.Family, d.Arch = "arm64", "arm64", 8
	default:
		d.Key, d.Family, d.Arch = runtime.GOARCH, runtime.GOARCH, 0
	}
	for _, f := range gatingFlags {
		if c.Supports(f.id) {
			d.Flags = append(d.Flags, f.name)
		}
	}
	d.Flags = append(d.Flags, "fp64")
	for _, lib := range vendorLibs {
		d.Flags = append(d.Flags, "vendor:"+lib)
	}
	slices.Sort(d.Flags)
	return d
}
