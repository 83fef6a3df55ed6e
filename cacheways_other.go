//go:build !amd64 || purego

package batchlas

// cacheWays is 0, 0 (not reported) where the library has no CPUID reader:
// the kernels then assume a common geometry (package cache).
func cacheWays() (l1d, l2 int) { return 0, 0 }
