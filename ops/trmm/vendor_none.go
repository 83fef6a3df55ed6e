//go:build novendor

package trmm

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// vendorCandidates is empty: a novendor build compiles no vendor kernel.
var vendorCandidates []sel.Choice

// vendor is never run in a novendor build (no vendor candidate exists to
// be chosen).
func (j *job[T]) vendor(int) {}
