//go:build !amd64 || purego

package lanerows

import "github.com/batchlas-go/batchlas"

// axpyRowsAsm reports that no assembly ran.
func axpyRowsAsm[T batchlas.Float](y, x, t []T, rows int) bool { return false }

// dotRowsAsm reports that no assembly ran.
func dotRowsAsm[T batchlas.Float](acc, x, y []T, rows int) bool { return false }
