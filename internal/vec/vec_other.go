//go:build !amd64 || purego

package vec

import "github.com/batchlas-go/batchlas"

// Without the amd64 assembly the Go twins run.

func rotAsm[T batchlas.Float](bool, []T, int, int, int, []T, []T) bool { return false }

func reflectAsm[T batchlas.Float]([]T, []T, int, int, T) bool { return false }
