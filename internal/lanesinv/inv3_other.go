//go:build !amd64 || purego

package lanesinv

import "github.com/batchlas-go/batchlas"

// inverse3Runs reports that there is no assembly loop here.
func inverse3Runs[T batchlas.Float]() bool { return false }

// inverse3 reports that no assembly ran.
func inverse3[T batchlas.Float](x, a []T, sx, sa, groups int, small T, info []int32) (ran, failed bool) {
	return false, false
}
