//go:build !amd64 || purego

package lanessvd

import "github.com/batchlas-go/batchlas"

// sweeps is the Go twin without the amd64 assembly.
func sweeps[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	return sweepsGo(g, v, n, maxSweeps, active, tol, small, big)
}
