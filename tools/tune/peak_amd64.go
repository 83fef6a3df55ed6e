//go:build amd64 && !purego

package main

import (
	"github.com/klauspost/cpuid/v2"

	"github.com/batchlas-go/batchlas/internal/simd"
	sel "github.com/batchlas-go/batchlas/select"
)

// The FMA loops of peak_amd64.s: n iterations of 24 independent fused
// multiply-adds on zmm (512-bit) or ymm (256-bit) registers.
func fmaZmmF64(n int)
func fmaZmmF32(n int)
func fmaYmmF64(n int)
func fmaYmmF32(n int)

// fmaLoop is the widest FMA loop this process's kernels use for dt, its
// vector width in bits, and the flops of one iteration.
func fmaLoop(dt sel.DType) (loop func(int), width int, flopsPerIter float64, ok bool) {
	lanes := 8 // float64 per 512 bits
	if dt == sel.Float32 {
		lanes = 16
	}
	switch {
	case simd.AVX512:
		loop = fmaZmmF64
		if dt == sel.Float32 {
			loop = fmaZmmF32
		}
		return loop, 512, 24 * 2 * float64(lanes), true
	case cpuid.CPU.Supports(cpuid.AVX2, cpuid.FMA3):
		loop = fmaYmmF64
		if dt == sel.Float32 {
			loop = fmaYmmF32
		}
		return loop, 256, 24 * 2 * float64(lanes/2), true
	}
	return nil, 0, 0, false
}
