package batchlas

import (
	"context"

	"github.com/batchlas-go/batchlas/internal/rootlink"
)

// WithParallelism returns a context whose calls run on at most n workers
// each: n >= 1 caps every call made with it (the calling goroutine counts
// as one worker, so n = 1 runs the call on the caller alone); n <= 0 means
// no cap, the default of GOMAXPROCS workers, and lifts a cap set by an
// outer WithParallelism. A nil ctx is context.Background().
//
// The cap holds for the calls an op makes inside itself (potrf's and
// trsm's blocked kernels call gemm and trsm with the caller's context), and
// BufferSize sizes per-worker scratch for it, so pass the same context to
// BufferSize and to the call.
//
// Whatever the cap, all calls of the process share one bounded set of
// helper workers (GOMAXPROCS-1 of them; the caller always works on its own
// call), so concurrent callers do not multiply the process's goroutines.
// Results do not depend on the cap or on how many helpers a call got: each
// matrix is computed the same way whichever worker computes it.
func WithParallelism(ctx context.Context, n int) context.Context {
	return rootlink.WithParallelism(ctx, n)
}
