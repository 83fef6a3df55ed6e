//go:build novendor

package geqrf

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

// vendorScratch is never asked for in a novendor build.
func vendorScratch(m, n int) int { return 0 }

// vendorGeqrf is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so geqrf.go compiles unchanged.
func vendorGeqrf[T batchlas.Float](ctx context.Context, a batchlas.Batch[T], tau batchlas.Vectors[T], ws []T) error {
	return errors.New("geqrf: vendor kernel not compiled (built with -tags novendor)")
}

// vendor is never run in a novendor build (see vendorGeqrf).
func (j *job[T]) vendor(w, lo, hi int) {}
