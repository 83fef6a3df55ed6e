package gemm

import (
	"context"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/parallel"
)

// WorkspaceBound is an upper bound, in elements, on BufferSize under ctx
// for every product whose op(A) is at most m x k and op(B) at most k x n,
// whatever candidate the selection picks for it: for an op that carves the
// workspace of nested gemm calls from its own before their operands exist
// (syev's divide and conquer, whose merges and reflector blocks are
// products of many shapes). It asks the selection nothing and allocates
// nothing. Like BufferSize it counts the workers a call with ctx may use.
func WorkspaceBound[T batchlas.Float](ctx context.Context, m, n, k int) int {
	if m <= 0 || n <= 0 || k <= 0 {
		return 0
	}
	ctx = batchlas.Context(ctx)
	d := batchlas.DeviceFrom(ctx)
	es := elemSize[T]()
	most := 0
	for _, c := range Op.Candidates(batchlas.DTypeOf[T]()) {
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
	return parallel.Workers(ctx) * parallel.Pad(most)
}
