//go:build novendor

package trsm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates is empty: a novendor build compiles no vendor kernel.
var vendorCandidates []sel.Choice

// launchVendor is unreachable in a novendor build (the vendor choice is not
// a candidate, so no decision returns it); it exists so trsm.go compiles.
func launchVendor[T batchlas.Float](_ context.Context, _ *problem, _ T, _, _ batchlas.Batch[T]) error {
	return opkit.Argf(opName, "route", "the vendor kernel is not compiled into this build (-tags novendor); pin native or a native choice")
}

// vendor is never run in a novendor build (see launchVendor).
func (j *job[T]) vendor(lo, hi int) {}
