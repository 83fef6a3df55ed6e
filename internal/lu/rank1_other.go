//go:build !amd64 || purego

package lu

import "github.com/batchlas-go/batchlas"

// rank1Asm reports false without the amd64 assembly: Rank1 runs its Go
// loop.
func rank1Asm[T batchlas.Float](l, t []T, ld, cols int, u *[4]T) bool { return false }

// substAsm reports false without the amd64 assembly: substituteUnitLower
// runs its Go loop.
func substAsm[T batchlas.Float](a []T, ld, r0, r1, s0, s1 int) bool { return false }
