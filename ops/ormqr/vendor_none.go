//go:build novendor

package ormqr

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorFloat64 is empty: a novendor build compiles no vendor kernel.
var vendorFloat64 []sel.Choice

// launchVendor is unreachable in a novendor build (vendor is no candidate).
func launchVendor[T batchlas.Float](_ context.Context, _ *problem, _ batchlas.Batch[T], _ batchlas.Vectors[T], _ batchlas.Batch[T], _ []T) error {
	return opkit.Argf(opName, "route", "the vendor kernel is not compiled into this build (-tags novendor); pin native or a native choice")
}

// vendorSize is 0: no vendor kernel.
func vendorSize(_ *problem) int { return 0 }

// vendor is never run in a novendor build.
func (j *job[T]) vendor(_ int, _ []T) {}
