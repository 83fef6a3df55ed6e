// Package fma rounds a*b + c once, in float32 as in float64: the Go twins
// of the AVX-512 kernels use it to give the same bits as the assembly's
// fused multiply-adds.
package fma
