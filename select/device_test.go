package sel

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Keys that start like a family the core knows must be spelt as that
// family: x86_64_v4 is not a cpu family of its own.
func TestParseDeviceKeyKnownFamiliesAreStrict(t *testing.T) {
	for key, want := range map[string][2]any{
		"x86-64": {"x86-64", 1}, "x86-64-v4": {"x86-64", 4}, "arm64": {"arm64", 0}, "arm64-v9": {"arm64", 9},
		"sm_90": {"sm", 90}, "gfx90a": {"gfx", 0x90a}, "riscv64": {"riscv64", 0}, "ppc64le": {"ppc64le", 0},
		"smx": {"smx", 0}, "armv7": {"armv7", 0},
	} {
		fam, arch, _, err := ParseDeviceKey(key)
		if assert.NoError(t, err, key) {
			assert.Equal(t, want, [2]any{fam, arch}, key)
		}
	}
	for _, key := range []string{"x86_64_v4", "x86", "x86-64-v", "x86-64-v0", "x86-64v4", "x8664", "amd64",
		"arm64_v8", "arm64-v", "arm64x", "arm649", "aarch64", "sm90", "sm_", "sm-90", "sm_9x", "gfx", "gfxz", "", "X86-64-v4", "a.b"} {
		_, _, _, err := ParseDeviceKey(key)
		assert.Error(t, err, key)
	}
}
