// Package simdpath lets a kernel's tests run every vector code path the
// machine has: the AVX-512 assembly (an AVX-512 machine presented as
// x86-64-v4), the AVX2 assembly (there, or an x86-64-v3 machine) and the
// Go twin, by flipping internal/simd's switches (simd.AVX512, simd.AVX2),
// which every kernel package reads at each call. It is for tests only;
// internal/simd's own tests keep their copy, as this package imports simd.
package simdpath
