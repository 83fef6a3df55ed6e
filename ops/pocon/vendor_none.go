//go:build novendor

package pocon

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// A novendor build compiles no vendor candidate.
var vendorFloat64 []sel.Choice

// launchVendor is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so pocon.go compiles unchanged.
func launchVendor[T batchlas.Float](_ context.Context, _ *problem, _ batchlas.Batch[T], _, _, _ []T, _ int) error {
	return opkit.Argf(opName, "route", "the vendor kernel is not compiled into this build (-tags novendor); pin permatrix")
}

// vendorSlot is 0: there is no vendor kernel to size for.
func vendorSlot(int) int { return 0 }
