//go:build !amd64 || purego

package potrf

import "github.com/batchlas-go/batchlas"

// rows8 is rows8Go without the amd64 assembly.
func rows8[T batchlas.Float](x []T, ld, n int, l *[64]T) { rows8Go(x, ld, n, l) }
