//go:build novendor

package getri

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// A novendor build compiles no vendor candidate.
var vendorFloat64 []sel.Choice

// vendorSlot is never asked for in a novendor build.
func vendorSlot(n int) int { return 0 }

// launchVendor is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so getri.go compiles unchanged.
func launchVendor[T batchlas.Float](context.Context, batchlas.Batch[T], batchlas.Vectors[int32], []T, []int32) error {
	return errors.New("getri: vendor kernel not compiled (built with -tags novendor)")
}

// vendor is never run in a novendor build (see launchVendor).
func (j *job[T]) vendor([]T, []int32, []T) {}
