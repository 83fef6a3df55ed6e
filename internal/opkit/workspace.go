package opkit

import (
	"context"
	"runtime"

	"github.com/batchlas-go/batchlas"
)

// WorkspaceShort is the *batchlas.ArgError on "ws" an op returns when the
// workspace it was given has have elements and kernel needs need for the
// call made with ctx. sizeFor is the kernel's size under a context, the
// op's own BufferSize arithmetic for this call, negative when it cannot
// size it.
//
// The size depends on the context: kernels with per-worker scratch size it
// for the workers a call may use (GOMAXPROCS, capped by
// batchlas.WithParallelism). A workspace sized by BufferSize under
// WithParallelism(1) and passed to a call under WithParallelism(8) is too
// short although BufferSize sized it, so when have would do for fewer
// workers, the error says that the workspace was sized for fewer workers
// than the call may use, and to size it with BufferSize under the call's
// own context. Otherwise it says how short it is. sizeFor is only called
// here, on the error path.
func WorkspaceShort(ctx context.Context, op, kernel string, have, need int, sizeFor func(context.Context) int) error {
	ctx = Context(ctx)
	fits := 0 // the most workers have is enough for
	if sizeFor != nil {
		for w := 1; w <= runtime.GOMAXPROCS(0); w++ {
			if n := sizeFor(batchlas.WithParallelism(ctx, w)); n < 0 || n > have {
				break
			}
			fits = w
		}
	}
	if fits > 0 {
		return Argf(op, "ws", "ws has %d elements, enough for kernel %s on %d worker(s), but this call may use more workers and needs %d: the workspace was sized for fewer workers than the call's context allows (BufferSize under a lower WithParallelism, or another GOMAXPROCS); size it with %s.BufferSize under the same context as the call, or pass nil",
			have, kernel, fits, need, op)
	}
	return Argf(op, "ws", "ws has %d elements, kernel %s needs %d; size it with %s.BufferSize or pass nil", have, kernel, need, op)
}
