package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// WorkspaceBound is an upper bound, in elements, on BufferSize for every
// product whose op(A) is at most m x k and op(B) at most k x n, on ctx's
// device under a context that lets a call use workers workers
// (parallel.Workers of it), whatever candidate the selection picks: for an
// op that carves the workspace of nested gemm calls from its own before
// their operands exist (syev's divide and conquer, whose merges and
// reflector blocks are products of many shapes, run on a share of the
// workers). It asks the selection nothing and allocates nothing.
func WorkspaceBound[T batchlas.Float](ctx context.Context, workers, m, n, k int) int {
	if m <= 0 || n <= 0 || k <= 0 {
		return 0
	}
	ctx = opkit.Context(ctx)
	d := opkit.DeviceFrom(ctx)
	es := elemSize[T]()
	most := 0
	for _, c := range Op.Candidates(opkit.DTypeOf[T]()) {
		if !c.Is(familyPacked) {
			continue // only packed takes workspace (workspace)
		}
		// packedPerWorker grows with m, n and the depth, but mc shrinks
		// as the depth grows: take the largest over every depth up to k
		// (beyond kc the depth is kc).
		kc := packedKC(c)
		for kk := 1; kk <= min(k, kc); kk++ {
			mc, _ := packedBlocking(c, d, es, kk)
			most = max(most, packedPerWorker(mc, kc, m, n, kk))
		}
	}
	if most == 0 {
		return 0
	}
	return max(workers, 1) * parallel.Pad(most)
}
