//go:build amd64 && !purego

package main

import (
	"github.com/klauspost/cpuid/v2"

	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// The FMA loops of peak_amd64.s: n iterations of 24 independent float64
// fused multiply-adds on zmm (512-bit) or ymm (256-bit) registers.
func fmaZmm(n int)
func fmaYmm(n int)

// fmaLoop is the widest FMA loop this process's kernels use, its vector
// width in bits, and the flops of one iteration in dt. The loop is
// float64's: x86 cores issue the float32 and float64 forms of an FMA at
// the same rate, so float32's flops per iteration are twice as many, one
// per lane.
func fmaLoop(dt sel.DType) (loop func(int), width int, flopsPerIter float64, ok bool) {
	switch {
	case simd.AVX512:
		loop, width = fmaZmm, 512
	case cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3):
		loop, width = fmaYmm, 256
	default:
		return nil, 0, 0, false
	}
	lanes := width / 64 // float64
	if dt == sel.Float32 {
		lanes *= 2
	}
	return loop, width, 24 * 2 * float64(lanes), true
}
