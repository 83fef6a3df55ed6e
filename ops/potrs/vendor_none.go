//go:build novendor

package potrs

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// A novendor build compiles no vendor candidate.
var (
	vendorFloat32 []sel.Choice
	vendorFloat64 []sel.Choice
)

// vendorPotrs is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so potrs.go compiles unchanged.
func vendorPotrs[T batchlas.Float](_ context.Context, _ batchlas.Uplo, _, _ batchlas.Batch[T], _ []T) error {
	return opkit.Argf(opName, "route", "the vendor kernel is not compiled into this build (-tags novendor); pin native or a native choice")
}

// vendorScratch is 0: there is no vendor kernel to size for.
func vendorScratch(_, _ int) int { return 0 }

// vendor is never run in a novendor build (see vendorPotrs).
func (j *job[T]) vendor(w, lo, hi int) {}
