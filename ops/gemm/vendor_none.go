//go:build novendor

package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates is empty: this build has no vendor library.
var vendorCandidates []sel.Choice

// vendor is never chosen in a novendor build (it is not a candidate); it
// exists so the launch switch compiles.
func vendor[T batchlas.Float](ctx context.Context, p *problem[T]) error {
	return opkit.Argf(opName, "route", "vendor kernel not compiled (built with -tags novendor)")
}

// vendorRange is never run in a novendor build (see vendor).
func vendorRange[T batchlas.Float](p *problem[T], lo, hi int) {}
