package getrs_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/getrs"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestNoAllocationsWithWorkspace(t *testing.T) {
	eachCandidate(t, noAllocs[float32], noAllocs[float64])
}

// noAllocs: with the BufferSize workspace supplied, the public call of the
// pinned candidate allocates nothing, on one worker and on all, for both
// transposes, orders 1 to 70, one and three right-hand sides, one system
// and 64; nested also under each trsm pin (blocked trsm hands its updates
// to gemm at order 70), its trsm calls working in the caller's workspace.
// The vendor candidate (gonum's Dtrsm) allocates nothing either.
func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	trsmPins := []string{""}
	if c.String() == "nested" {
		trsmPins = append(trsmPins, "direct", "blocked:nb=8")
	}
	for _, tp := range trsmPins {
		ctx := ctx
		if tp != "" {
			ctx = sel.WithPin(ctx, "trsm", tp)
		}
		for _, trans := range transes {
			for _, n := range []int{1, 5, 20, 70} {
				for _, nrhs := range []int{1, 3} {
					for _, count := range []int{1, 64} {
						a, ipiv := factors[T](uint64(n), n, count, 0, 0)
						b := rhs[T](uint64(n+1), n, nrhs, count, 0, 0)
						size, err := getrs.BufferSize(ctx, trans, a, ipiv, b)
						if err != nil {
							t.Fatal(err)
						}
						ws := make([]T, size)
						orig := append([]T(nil), b.Data...)
						what := fmt.Sprintf("trsm pin %q %v n=%d nrhs=%d count=%d", tp, trans, n, nrhs, count)
						testmat.NoAllocs(t, what, func() {
							copy(b.Data, orig) // the same systems, not their solutions again
							if err := getrs.Getrs(ctx, trans, a, ipiv, b, ws); err != nil {
								t.Fatal(err)
							}
						})
					}
				}
			}
		}
	}
}
