//go:build !amd64 || purego

package main

import sel "github.com/batchlas-go/batchlas/select"

// fmaLoop has no loop without the amd64 assembly: the peers table then
// leaves the peak out.
func fmaLoop(sel.DType) (loop func(int), width int, flopsPerIter float64, ok bool) {
	return nil, 0, 0, false
}
