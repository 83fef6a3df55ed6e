//go:build !amd64 || purego

package syrk

import "github.com/batchlas-go/batchlas"

// triRuns is false without the amd64 assembly: the tiles run instead.
func triRuns() bool { return false }

// tri is never called where triRuns is false.
func tri[T batchlas.Float](int, []T, int, []T, int, int, *[2]T, bool, bool, *[4]uintptr) {
	panic("syrk: the triangle kernel needs the amd64 assembly")
}
