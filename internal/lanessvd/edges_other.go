//go:build !amd64 || purego

package lanessvd

import "github.com/batchlas-go/batchlas"

// scale is Scale's Go twin without the amd64 assembly.
func scale[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) uint64 {
	return scaleGo(g, nn, mask, h, exps)
}

// values is Values' Go twin without the amd64 assembly.
func values[T batchlas.Float](g []T, n int, ok uint64, exps *[16]int32, minSum T, s []T, ss int) uint64 {
	return valuesGo(g, n, ok, exps, minSum, s, ss)
}
