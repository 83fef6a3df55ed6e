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
