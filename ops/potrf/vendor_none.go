//go:build novendor

package potrf

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

// vendorPotrf is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so potrf.go compiles unchanged.
func vendorPotrf[T batchlas.Float](ctx context.Context, uplo batchlas.Uplo, a batchlas.Batch[T], info []int32) error {
	return errors.New("potrf: vendor kernel not compiled (built with -tags novendor)")
}

// vendorRange is never run in a novendor build (see vendorPotrf).
func vendorRange[T batchlas.Float](uplo batchlas.Uplo, a batchlas.Batch[T], info []int32, lo, hi int) {
}
