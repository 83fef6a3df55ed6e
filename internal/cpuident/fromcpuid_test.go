package cpuident

import (
	"slices"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// The host varies, so only the shape of its facts is checked.
func TestFromCPUIDHost(t *testing.T) {
	f := FromCPUID(&cpuid.CPU)
	name := Name(f)
	if !Valid(name) {
		t.Fatalf("host facts %+v give %q, not Valid", f, name)
	}
	if f.L1DWays != 0 || f.L2Ways != 0 {
		t.Errorf("FromCPUID filled ways: %d, %d", f.L1DWays, f.L2Ways)
	}
	for _, x := range f.Features {
		if !slices.Contains(spelled, x) {
			t.Errorf("host feature %q is not one Facts spells", x)
		}
	}
	if f.Vendor != cleanVendor(f.Vendor) && f.Vendor != "" {
		t.Errorf("host vendor %q is not lower-case letters and digits", f.Vendor)
	}
	t.Logf("host: %+v -> %q", f, name)
}

func TestFromCPUIDNil(t *testing.T) {
	f := FromCPUID(nil)
	if f.Vendor != "" || len(f.Features) != 0 || Name(f) != "cpu-x86" {
		t.Errorf("FromCPUID(nil) = %+v, Name %q", f, Name(f))
	}
}

func TestVendorOf(t *testing.T) {
	cases := []struct {
		id   cpuid.Vendor
		s    string
		want string
	}{
		{cpuid.Intel, "GenuineIntel", "intel"},
		{cpuid.AMD, "AuthenticAMD", "amd"},
		{cpuid.AMD, "AMDisbetter!", "amd"},
		{cpuid.Hygon, "HygonGenuine", "hygon"},
		{cpuid.VendorUnknown, "  Shanghai  ", "zhaoxin"},
		{cpuid.VIA, "CentaurHauls", "centaurhauls"},
		{cpuid.VendorUnknown, "", ""},
		{cpuid.VendorUnknown, "Weird Vendor!", "weirdvendor"},
	}
	for _, c := range cases {
		if got := vendorOf(c.id, c.s); got != c.want {
			t.Errorf("vendorOf(%v, %q) = %q, want %q", c.id, c.s, got, c.want)
		}
	}
}
