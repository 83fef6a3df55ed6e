//go:build novendor

package getrf

import (
	"context"
	"errors"

	"github.com/batchlas-go/batchlas"
	sel "github.com/batchlas-go/batchlas/select"
)

// A novendor build compiles no vendor candidate.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 []sel.Choice
)

// vendorGetrf is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so getrf.go compiles unchanged.
func vendorGetrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], ipiv batchlas.Vectors[int32], ws []T, info []int32) error {
	return errors.New("getrf: vendor kernel not compiled (built with -tags novendor)")
}

// vendor is never run in a novendor build (see vendorGetrf).
func (j *job[T]) vendor(w, lo, hi int) {}
