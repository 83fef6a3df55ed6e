package gemm

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// WorkspaceBound holds BufferSize for every candidate pinned and every
// shape within the bound's m x n x k (the depths below kc, where the
// packed block of A is taller, included), under the context's workers and
// under a cap of one: a caller that carves nested calls' workspace from
// it never hands gemm too little.
func TestWorkspaceBoundHoldsBufferSize(t *testing.T) {
	t.Run("float32", workspaceBoundHolds[float32])
	t.Run("float64", workspaceBoundHolds[float64])
}

func workspaceBoundHolds[T batchlas.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	const M, N, K = 300, 260, 280
	for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
		for _, capped := range []bool{false, true} {
			ctx := pinned(c)
			if capped {
				ctx = batchlas.WithParallelism(ctx, 1)
			}
			bound := WorkspaceBound[T](ctx, parallel.Workers(ctx), M, N, K)
			for _, s := range []shape{
				{batchlas.NoTrans, batchlas.NoTrans, M, N, K, 1},
				{batchlas.Trans, batchlas.NoTrans, 32, N, K, 1},
				{batchlas.NoTrans, batchlas.NoTrans, M, N, 1, 1},
				{batchlas.NoTrans, batchlas.NoTrans, M, N, 7, 2},
				{batchlas.NoTrans, batchlas.Trans, M, 32, 32, 1},
				{batchlas.NoTrans, batchlas.NoTrans, 5, 3, 64, 3},
			} {
				a, b, cc := operands[T](r, s, layout{})
				need, err := BufferSize(ctx, s.ta, s.tb, a, b, cc)
				if err != nil {
					t.Fatal(err)
				}
				if need > bound {
					t.Errorf("%s %v capped=%v: BufferSize %d above WorkspaceBound %d", c, s, capped, need, bound)
				}
			}
		}
	}
	if got := WorkspaceBound[T](context.Background(), 4, 0, 5, 5); got != 0 {
		t.Errorf("an empty product's bound is %d, want 0", got)
	}
}
