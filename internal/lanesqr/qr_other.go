//go:build !amd64 || purego

package lanesqr

import "github.com/batchlas-go/batchlas"

// step is the Go twin without the amd64 assembly.
func step[T batchlas.Float](a []T, m, n, ld, j, kk int, live uint64, resume bool, tau []T, kc *[6]T, s *scratch[T]) (int, uint64) {
	return stepGo(a, m, n, ld, j, kk, live, resume, tau, kc, s)
}
