//go:build !amd64 || purego

package lanesinv

import "github.com/batchlas-go/batchlas"

// potriAsm reports that no assembly ran.
func potriAsm[T batchlas.Float](lower bool, g []T, n, gld, L int) bool { return false }
