package potrf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// With the BufferSize workspace supplied, the public call of every
// candidate allocates nothing, on one worker and on all: the straight-line
// orders, tiny's pairs, lanes, the per-matrix kernels' Upper copies,
// blocked on the host (per matrix) and on a 1-byte L2 (the batch-wide path,
// whose nested trsm and gemm calls get the caller's workspace), tiled over
// several tiles, and gonum's Dpotrf (vendor) too.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	r := rand.New(rand.NewPCG(31, 1))
	orders := []int{1, 3, 12, 13, 16, 32, 70}
	if c.Is(blockedFamily) || c.Is(tiledFamily) {
		orders = append(orders, 200) // blocked: three steps on a small L2; tiled: two tiles a side
	}
	for _, n := range orders {
		for _, count := range []int{1, 64} {
			if !runnable(c, uplo, n, count) || (n == 200 && count > 1) {
				continue
			}
			a := batchFor[T](r, n, count, false)
			orig := append([]T(nil), a.Data...)
			size, err := BufferSize(ctx, uplo, a)
			if err != nil {
				t.Fatal(err)
			}
			ws := make([]T, size)
			testmat.NoAllocsRuns(t, fmt.Sprintf("n=%d count=%d", n, count), 10, func() {
				copy(a.Data, orig) // factor the SPD matrices again, not their factors
				if err := Potrf(ctx, uplo, a, ws); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
