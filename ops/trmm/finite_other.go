//go:build !amd64 || purego

package trmm

import "github.com/batchlas-go/batchlas"

// finite reports whether the rows x cols matrix x (leading dimension ld)
// holds no Inf or NaN (the Go loop: no assembly on this build).
func finite[T batchlas.Float](x []T, rows, cols, ld int) bool {
	return finiteGo(x, rows, cols, ld)
}
