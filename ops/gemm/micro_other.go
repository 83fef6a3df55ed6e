//go:build !amd64 || purego

package gemm

import "github.com/batchlas-go/batchlas"

// microTile is the packed family's register tile; without the amd64
// assembly (micro_amd64.go) it is the portable Go kernel.
func microTile[T batchlas.Float](kb int, ap, bp []T) (c0, c1, c2, c3, d0, d1, d2, d3 T) {
	return microPacked(kb, ap, bp)
}
