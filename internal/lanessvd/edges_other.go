//go:build !amd64 || purego

package lanessvd

import "github.com/batchlas-go/batchlas"

// scale is Scale's Go twin without the amd64 assembly.
func scale[T batchlas.Float](g []T, nn int, mask uint64, h int, exps *[16]int32) uint64 {
	return scaleGo(g, nn, mask, h, exps)
}

// finish is Finish's Go twin without the amd64 assembly.
func finish[T batchlas.Float](g, v []T, n int, ok uint64, exps *[16]int32, minSum, eps T, wantU bool, s []T, ss int) uint64 {
	return finishGo(g, v, n, ok, exps, minSum, eps, wantU, s, ss)
}
