package batchlas

import "context"

type parallelismKey struct{}

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
	return context.WithValue(Context(ctx), parallelismKey{}, max(n, 0))
}

// ParallelismFrom returns the cap WithParallelism set on ctx: n >= 1, or 0
// for no cap (none set, or set to n <= 0). A nil ctx has no cap.
func ParallelismFrom(ctx context.Context) int {
	if ctx == nil {
		return 0
	}
	n, _ := ctx.Value(parallelismKey{}).(int)
	return n
}
