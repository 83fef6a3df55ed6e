package getrf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
	sel "github.com/batchlas-go/batchlas/select"
)

// With the BufferSize workspace supplied, the public call of every native
// candidate allocates nothing, on one worker and on all, on orders from 1
// to 200 (batched takes several steps, its nested trsm and gemm calls
// working in the caller's workspace), one matrix and 64; the nested gemm
// also pinned to packed, which needs workspace of its own. The vendor
// candidate allocates nothing of its own (gonum's []int pivots are
// recycled); gonum's Dgetrf allocates inside its Dgemm from order 128 on,
// within vendorAllocBound.
func TestNoAllocationsWithWorkspace(t *testing.T) {
	forEachCandidate(t, noAllocs[float32], noAllocs[float64])
}

// vendorAllocBound is the documented bound on the vendor candidate's
// allocations per call: gonum's Dgetrf factors in panels of 64 columns
// and updates the rest with its Dgemm, which runs a product of at least
// four 64x64 blocks on goroutines of its own, about two allocations per
// block (see gemm's bound); 4 plus 2 per block per update, per matrix.
// Measured: 0 up to order 127, 30 per matrix at 200 (the bound: 34).
func vendorAllocBound(n, count int) float64 {
	per := 0
	for k := 64; k < n; k += 64 {
		if b := (n - k + 63) / 64; b*b >= 4 {
			per += 4 + 2*b*b
		}
	}
	return float64(count * per)
}

func noAllocs[T batchlas.Float](t *testing.T, ctx context.Context, c sel.Choice) {
	testmat.DriverCheck[T](t)
	r := rand.New(rand.NewPCG(31, 2))
	for _, gemmPin := range []string{"", "packed:kc=128"} {
		ctx := ctx
		if gemmPin != "" {
			if !c.Is(batchedFamily) {
				continue
			}
			ctx = sel.WithPin(ctx, "gemm", gemmPin)
		}
		for _, n := range []int{1, 3, 16, 20, 70, 200} {
			for _, count := range []int{1, 64} {
				if !runnable(c, n, count) || (n == 200 && count > 1 && !c.Vendor()) {
					continue
				}
				a := randomBatch[T](r, n, count, false)
				ipiv := pivotsFor(n, count, false)
				orig := append([]T(nil), a.Data...)
				size, err := BufferSize(ctx, a, ipiv)
				if err != nil {
					t.Fatal(err)
				}
				ws := make([]T, size)
				call := func() {
					copy(a.Data, orig) // factor the matrices again, not their factors
					if err := Getrf(ctx, a, ipiv, ws); err != nil {
						t.Fatal(err)
					}
				}
				what := fmt.Sprintf("gemm pin %q n=%d count=%d", gemmPin, n, count)
				if c.Vendor() && n >= 128 {
					if testmat.RaceEnabled {
						continue
					}
					if got := testmat.FewestAllocs(10, call); got > vendorAllocBound(n, count) {
						t.Errorf("%s: %v allocations per call, above the documented bound %v", what, got, vendorAllocBound(n, count))
					}
					continue
				}
				testmat.NoAllocs(t, what, call)
			}
		}
	}
}
