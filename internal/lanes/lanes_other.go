//go:build !amd64 || purego

package lanes

import "github.com/batchlas-go/batchlas"

// jacobi is the Go twin without the amd64 assembly.
func jacobi[T batchlas.Float](a, v []T, n, ld, sweeps int, k *[6]T, sched []int64, w []T) (uint64, int) {
	return jacobiGo(a, v, n, ld, sweeps, k, sched, w)
}

// luRun is the Go twin without the amd64 assembly.
func luRun[T batchlas.Float](a, b, piv []T, n, nrhs, ld int, k *[3]T) {
	luGo(a, b, piv, n, nrhs, ld, k)
}

// packAsm and unpackAsm report that no assembly ran.
func packAsm[T batchlas.Float](g, src []T, stride, ld, rows, cols, count, gld int) bool {
	return false
}

func unpackAsm[T batchlas.Float](dst, g []T, stride, ld, rows, cols int, mask uint64, gld int) bool {
	return false
}

// cholRun is the Go twin without the amd64 assembly.
func cholRun[T batchlas.Float](a, b []T, n, nrhs, rs, cs, ld int, info []T) {
	cholGo(a, b, n, nrhs, rs, cs, ld, info)
}

// tridiagRun is the Go twin without the amd64 assembly.
func tridiagRun[T batchlas.Float](a []T, n, ld int, d, e, w []T) {
	tridiagGo(a, n, ld, d, e, w)
}

// invRun is the Go twin without the amd64 assembly.
func invRun[T batchlas.Float](a, x, piv []T, n, ld int, k *[3]T, info []T) {
	invGo(a, x, piv, n, ld, k, info)
}
