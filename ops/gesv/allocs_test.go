package gesv_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	"github.com/batchlas-go/batchlas/ops/gesv"
	sel "github.com/batchlas-go/batchlas/select"
)

func TestNoAllocationsWithWorkspace(t *testing.T) {
	eachCandidate(t, noAllocs[float32], noAllocs[float64])
}

// noAllocs: with the BufferSize workspace supplied, the public call of the
// pinned candidate allocates nothing, on one worker and on all, on orders
// 1 to 70, one and three right-hand sides, one system and 64; nested also
// under getrf pinned to batched (nested trsm and gemm a level deeper) and
// getrs pinned to nested (trsm beneath it), every nested call working in
// the caller's workspace.
func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	pins := [][2]string{{}}
	if c.String() == "nested" {
		pins = append(pins, [2]string{"getrf", "batched:nb=16"}, [2]string{"getrs", "nested"})
	}
	for _, pn := range pins {
		ctx := ctx
		if pn[0] != "" {
			ctx = sel.WithPin(ctx, pn[0], pn[1])
		}
		for _, n := range []int{1, 5, 20, 70} {
			for _, nrhs := range []int{1, 3} {
				for _, count := range []int{1, 64} {
					if !runs(c, n, nrhs, count) {
						continue
					}
					a0, ipiv, b0 := system[T](uint64(n), n, nrhs, count, false)
					a, b := testmat.Clone(a0), testmat.Clone(b0)
					size, err := gesv.BufferSize(ctx, a, ipiv, b)
					if err != nil {
						t.Fatal(err)
					}
					ws := make([]T, size)
					what := fmt.Sprintf("pin %v n=%d nrhs=%d count=%d", pn, n, nrhs, count)
					testmat.NoAllocs(t, what, func() {
						copy(a.Data, a0.Data) // solve the same systems again
						copy(b.Data, b0.Data)
						if err := gesv.Gesv(ctx, a, ipiv, b, ws); err != nil {
							t.Fatal(err)
						}
					})
				}
			}
		}
	}
}
