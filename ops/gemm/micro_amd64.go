//go:build amd64 && !purego

package gemm

import (
	"unsafe"

	"github.com/klauspost/cpuid/v2"

	"github.com/batchlas-go/batchlas"
)

// useFMA runs the packed family's register tiles with the AVX2/FMA
// assembly of micro_amd64.s when the CPU executing the process has both
// (every x86-64-v3 and -v4 machine does). It is a code path of the one
// kernel, chosen by what the CPU can execute, not a candidate of its own:
// machines sharing a device key share it, so their tables stay comparable.
// A variable so the tests run both paths on one machine; `-tags purego`
// builds without the assembly.
var useFMA = cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3)

// The assembly is written for a 4 x 2 tile.
var _ [0]struct{} = [mr*nr - 8]struct{}{}

//go:noescape
func micro4x2F64(kb int, ap, bp *float64, out *[mr * nr]float64)

//go:noescape
func micro4x2F32(kb int, ap, bp *float32, out *[mr * nr]float32)

// microTile is the packed family's register tile: the kb-deep product of
// an mr-row panel of op(A) and an nr-column panel of op(B), as microPacked
// returns it.
func microTile[T batchlas.Float](kb int, ap, bp []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	if !useFMA || kb <= 0 {
		return microPacked(kb, ap, bp)
	}
	// The assembly reads exactly these elements; slicing checks they exist.
	ap, bp = ap[:kb*mr], bp[:kb*nr]
	var out [mr * nr]T
	if unsafe.Sizeof(out[0]) == 8 {
		micro4x2F64(kb, (*float64)(unsafe.Pointer(&ap[0])), (*float64)(unsafe.Pointer(&bp[0])), (*[mr * nr]float64)(unsafe.Pointer(&out)))
	} else {
		micro4x2F32(kb, (*float32)(unsafe.Pointer(&ap[0])), (*float32)(unsafe.Pointer(&bp[0])), (*[mr * nr]float32)(unsafe.Pointer(&out)))
	}
	return out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]
}

// useAVX512 runs the simd family's tile and the packed kernel on the wide
// AVX-512 tile of simd_amd64.s (24 x 8 float64, 48 x 8 float32) when the
// executing CPU is x86-64-v4 and the process presents itself as one; the
// packing follows the tile's shape (wideShape). The assembly needs only
// AVX-512 F, but tying the path to the level that names the device key
// keeps useFMA's rule: machines sharing a device key share the code path,
// so their tables compare. That is also why a process run with
// BATCHLAS_DEVICE=x86-64-v3 on an AVX-512 machine leaves the path off: it
// runs, and measures, what an x86-64-v3 machine runs (the x86-64-v3 tables
// are tuned that way). A variable so the tests run every path on one
// machine; without it the 4 x 2 tile (AVX2/FMA or portable) runs.
var useAVX512 = cpuid.CPU.X64Level() >= 4 && cpuid.CPU.Supports(cpuid.AVX512F) &&
	batchlas.Host().Family == "x86-64" && batchlas.Host().Arch >= 4

// wideShape is the wide register tile of the packed kernel for T, or 0, 0
// when the wide path is off.
func wideShape[T batchlas.Float]() (mrw, nrw int) {
	if !useAVX512 {
		return 0, 0
	}
	var z T
	if unsafe.Sizeof(z) == 8 {
		return 24, 8
	}
	return 48, 8
}
