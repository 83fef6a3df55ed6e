//go:build !amd64 || purego

package lanes

import "github.com/batchlas-go/batchlas"

// jacobi is the Go twin without the amd64 assembly.
func jacobi[T batchlas.Float](a, v []T, n, sweeps int, k *[6]T, sched []int64, w []T) (uint64, int) {
	return jacobiGo(a, v, n, sweeps, k, sched, w)
}
