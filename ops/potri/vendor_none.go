//go:build novendor

package potri

import (
	sel "github.com/batchlas-go/batchlas/select"
)

// A novendor build compiles no vendor candidate.
var vendorFloat64 []sel.Choice

// vendor is never run in a novendor build (no vendor candidate exists to
// be chosen).
func (j *job[T]) vendor([]T) {}
