//go:build !amd64 || purego

package lanesinv

import "github.com/batchlas-go/batchlas"

// lowerAsm reports that no assembly ran.
func lowerAsm[T batchlas.Float](g []T, n, gld, L int) bool { return false }

// upperAsm reports that no assembly ran.
func upperAsm[T batchlas.Float](g []T, n, gld, L int) bool { return false }
