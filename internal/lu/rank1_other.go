//go:build !amd64 || purego

package lu

import "github.com/batchlas-go/batchlas"

// Without the amd64 assembly simd.AVX512 and simd.AVX2 are false and
// Rank1 and substituteUnitLower run their Go loops: these are never
// called.

func rank1Asm[T batchlas.Float](l, t []T, ld, cols int, u *[4]T) {}

func substAsm[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) {}
