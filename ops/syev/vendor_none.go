//go:build novendor

package syev

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

// vendorSlot is never asked for in a novendor build (no vendor candidate
// exists to be chosen).
func vendorSlot(int, Job) int { return 0 }

// vendorSyev is unreachable in a novendor build; it is here so syev.go
// compiles unchanged.
func vendorSyev[T batchlas.Float](ctx context.Context, jobz Job, uplo batchlas.Uplo, a batchlas.Batch[T], w batchlas.Vectors[T], ws []T, info []int32) error {
	return errors.New("syev: vendor kernel not compiled (built with -tags novendor)")
}

// vendorSolve is unreachable in a novendor build (solveMatrix's vendor
// case).
func vendorSolve[T batchlas.Float](s, d, rest []T, n int, vectors bool, lwork int) ([]T, int) {
	panic("syev: vendor kernel not compiled (built with -tags novendor)")
}
