//go:build novendor

package gesvd

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

// vendorSlot is never asked for in a novendor build.
func vendorSlot(m, n int, jobu, jobvt Job) int { return 0 }

// vendorGesvd is unreachable in a novendor build (no vendor candidate
// exists to be chosen); it is here so gesvd.go compiles unchanged.
func vendorGesvd[T batchlas.Float](ctx context.Context, p *problem[T], ws []T, info []int32) error {
	return errors.New("gesvd: vendor kernel not compiled (built with -tags novendor)")
}

// vendor is never run in a novendor build (see vendorGesvd).
func (j *job[T]) vendor(w, lo, hi int) {}
