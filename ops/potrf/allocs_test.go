package potrf

import (
	"context"
	"errors"
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
	testmat.DriverCheck[T](t)
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
			testmat.NoAllocs(t, fmt.Sprintf("n=%d count=%d", n, count), func() {
				copy(a.Data, orig) // factor the SPD matrices again, not their factors
				if err := Potrf(ctx, uplo, a, ws); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// The batch-wide blocked path's workspace covers its nested calls: with
// gemm pinned to packed (which needs workspace) it is not 0, one element
// less is potrf's *ArgError on ws, and a bad gemm pin is BufferSize's
// error as it is the call's.
func TestNestedWorkspace(t *testing.T) {
	ctx := batchlas.WithDevice(pin(blockedFamily.With()), smallCache())
	a := batchFor[float64](rand.New(rand.NewPCG(31, 3)), 130, 2, false)
	size, err := BufferSize(sel.WithPin(ctx, "gemm", "packed:kc=128"), batchlas.Lower, a)
	if err != nil {
		t.Fatal(err)
	}
	if size == 0 {
		t.Fatal("BufferSize is 0: the nested packed gemm needs workspace")
	}
	err = Potrf(sel.WithPin(ctx, "gemm", "packed:kc=128"), batchlas.Lower, a, make([]float64, size-1))
	var ae *batchlas.ArgError
	if !errors.As(err, &ae) || ae.Op != "potrf" || ae.Arg != "ws" {
		t.Errorf("ws of %d < %d: got %v, want potrf's ArgError on ws", size-1, size, err)
	}
	var pe *sel.PinError
	if _, err := BufferSize(sel.WithPin(ctx, "gemm", "nosuch"), batchlas.Lower, a); !errors.As(err, &pe) || pe.Op != "gemm" {
		t.Errorf("a bad gemm pin: BufferSize got %v, want gemm's PinError", err)
	}
}
