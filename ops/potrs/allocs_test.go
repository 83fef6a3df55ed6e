package potrs

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// With the BufferSize workspace supplied, the public call of every
// candidate allocates nothing, on one worker and on all: fused, vendor
// (gonum's Dpotrs) with one and several columns, and nested under each
// trsm pin, its trsm calls (and blocked trsm's gemm updates, at order 70)
// working in the caller's workspace.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice, uplo batchlas.Uplo) {
	testmat.DriverCheck[T](t)
	r := testmat.Rand(31)
	for _, n := range []int{1, 5, 20, 70} {
		for _, nrhs := range []int{1, 3} {
			for _, count := range []int{1, 64} {
				s := newSystem[T](r, uplo, n, nrhs, count, false)
				size, err := BufferSize(ctx, uplo, s.a, s.b)
				if err != nil {
					t.Fatal(err)
				}
				ws := make([]T, size)
				orig := append([]T(nil), s.b.Data...)
				testmat.NoAllocs(t, fmt.Sprintf("n=%d nrhs=%d count=%d", n, nrhs, count), func() {
					copy(s.b.Data, orig) // solve the same systems, not their solutions again
					if err := Potrs(ctx, uplo, s.a, s.b, ws); err != nil {
						t.Fatal(err)
					}
				})
			}
		}
	}
}
