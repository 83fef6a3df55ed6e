package simdpath

import (
	"testing"

	"github.com/batchlas-go/batchlas/internal/simd"
)

// The switches as the process set them, before any test flipped them.
var hostAVX512, hostAVX2 = simd.AVX512, simd.AVX2

// The paths' names.
const (
	AVX512 = "avx512"
	AVX2   = "avx2"
	Go     = "go"
)

// HostAVX512 reports whether this machine runs the AVX-512 path.
func HostAVX512() bool { return hostAVX512 }

// Paths are the code paths this machine runs, the Go twin last.
func Paths() []string {
	var ps []string
	if hostAVX512 {
		ps = append(ps, AVX512)
	}
	if hostAVX512 || hostAVX2 {
		ps = append(ps, AVX2)
	}
	return append(ps, Go)
}

// Asm are Paths without the Go twin: the assembly paths to compare with
// it.
func Asm() []string {
	ps := Paths()
	return ps[:len(ps)-1]
}

// Use sets simd's switches to run path and returns what puts them back:
// defer simdpath.Use(path)().
func Use(path string) (restore func()) {
	simd.AVX512, simd.AVX2 = path == AVX512, path == AVX2
	return func() { simd.AVX512, simd.AVX2 = hostAVX512, hostAVX2 }
}

// EachAsm runs check once per assembly path this machine has (Asm), to
// compare it with the Go twin, and skips t where there is none.
func EachAsm(t testing.TB, check func(path string)) {
	t.Helper()
	if len(Asm()) == 0 {
		t.Skip("no AVX-512 or AVX2 path on this machine: only the Go twin runs")
	}
	for _, path := range Asm() {
		check(path)
	}
}
