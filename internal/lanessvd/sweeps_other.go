//go:build !amd64 || purego

package lanessvd

import "github.com/batchlas-go/batchlas"

// sweeps is the Go twin without the amd64 assembly.
func sweeps[T batchlas.Float](g, v []T, n, maxSweeps int, active uint64, tol, small, big T) uint64 {
	return sweepsGo(g, v, n, maxSweeps, active, tol, small, big)
}

// sweeps2 is the Go twin of two groups without the amd64 assembly.
func sweeps2[T batchlas.Float](g1, v1, g2, v2 []T, n, maxSweeps int, active1, active2 uint64, tol, small, big T) (uint64, uint64) {
	return sweeps2Go(g1, v1, g2, v2, n, maxSweeps, active1, active2, tol, small, big)
}
