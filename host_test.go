package batchlas

import (
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	sel "github.com/batchlas-go/batchlas/select"
)

func TestDetectHost(t *testing.T) {
	d := detectHost()
	require.Equal(t, sel.CPU, d.Class)
	require.NotEmpty(t, d.Key)
	require.NotEmpty(t, d.Name)
	require.Positive(t, d.Cores)
	require.True(t, slices.IsSorted(d.Flags), "flags must be sorted for Has: %v", d.Flags)
	require.True(t, d.Has("fp64"))
	fam, arch, class, err := sel.ParseDeviceKey(d.Key)
	require.NoError(t, err)
	require.Equal(t, d.Family, fam, "detected family agrees with the key's")
	require.Equal(t, d.Arch, arch)
	require.Equal(t, d.Class, class)
	if runtime.GOARCH == "amd64" {
		require.Regexp(t, `^x86-64-v[1-4]$`, d.Key)
		require.True(t, d.Has("sse2"), "every amd64 CPU has sse2")
		if d.Arch >= 3 {
			require.True(t, d.Has("avx2") && d.Has("fma"), "x86-64-v3 implies avx2 and fma")
		}
	}
	// The vendor flags follow the build: gonum is in unless -tags novendor.
	require.Equal(t, len(vendorLibs) > 0, d.Has("vendor:blas"))
	require.Equal(t, len(vendorLibs) > 0, d.Has("vendor:lapack"))
}

func TestWithKeyKeepsFacts(t *testing.T) {
	d := detectHost()
	v3, err := d.WithKey("x86-64-v3")
	require.NoError(t, err)
	require.Equal(t, "x86-64-v3", v3.Key)
	require.Equal(t, 3, v3.Arch)
	require.Equal(t, d.Flags, v3.Flags, "identity changes, capability flags do not")
	require.Equal(t, d.Cores, v3.Cores)
	_, err = d.WithKey("bad.key")
	require.Error(t, err)
}
