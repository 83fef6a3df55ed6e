// Package parallel is the batch-parallel loop every kernel uses: it spreads
// the matrices of a batch over GOMAXPROCS workers in chunks and honours
// context cancellation between chunks, reporting how far it got.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
)

// Workers is the number of workers For uses now (GOMAXPROCS). Kernels that
// need per-worker scratch size their workspace with it.
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls fn(worker, lo, hi) over [0, count) in chunks of at least grain
// matrices, on at most Workers() goroutines; worker is in [0, Workers()).
// work is the rough cost of one matrix in flops: small batches of cheap
// matrices run on the calling goroutine, where a goroutine would cost more
// than it saves.
//
// It checks ctx before each chunk and stops handing out chunks once ctx is
// done. Chunks are handed out in order and a chunk once started runs to
// its end, so when For stops early the chunks that ran are a prefix of the
// batch: it then returns a *batchlas.InterruptedError (Op left empty for
// the op's entry point to fill) with Completed = Touched = the end of that
// prefix and Err = ctx.Err(). It returns nil once every chunk has run,
// even if ctx was cancelled meanwhile. Nothing is tracked per chunk: the
// prefix is the chunk counter's final value.
func For(ctx context.Context, count int, work float64, fn func(worker, lo, hi int)) error {
	if count <= 0 {
		return nil
	}
	workers := Workers()
	const minChunkFlops = 32 << 10
	grain := 1
	if work > 0 && work < minChunkFlops {
		grain = int(minChunkFlops / work)
	}
	// Four chunks per worker balances load without much scheduling.
	chunk := max(grain, count/(workers*4))
	nchunks := (count + chunk - 1) / chunk
	workers = min(workers, nchunks)
	if workers <= 1 {
		for lo := 0; lo < count; lo += chunk {
			if err := ctx.Err(); err != nil {
				return interrupted(count, lo, err)
			}
			fn(0, lo, min(count, lo+chunk))
		}
		return nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	run := func(w int) {
		for {
			if ctx.Err() != nil {
				return
			}
			c := int(next.Add(1) - 1)
			lo := c * chunk
			if lo >= count {
				return
			}
			fn(w, lo, min(count, lo+chunk))
		}
	}
	wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		go func() { defer wg.Done(); run(w) }()
	}
	run(0)
	wg.Wait()
	// Every chunk below next was handed out and has run to its end; none
	// above it started. next stops short of nchunks only when some worker
	// saw ctx done, and a done context stays done.
	if handed := int(next.Load()); handed < nchunks {
		return interrupted(count, handed*chunk, ctx.Err())
	}
	return nil
}

// interrupted is the error of a For stopped with the first done matrices
// of count completed and the rest untouched.
func interrupted(count, done int, err error) error {
	return &batchlas.InterruptedError{Count: count, Completed: done, Touched: done, Err: err}
}

// padElems is the granularity of per-worker scratch, in elements: 32
// elements are at least 128 bytes, two cache lines of float32.
const padElems = 32

// Pad returns the per-worker stride for scratch of elems elements: rounded
// up to padElems and one padElems of slack beyond it, so the scratch of two
// workers never shares a cache line whatever the alignment of the backing
// slice. Without it, tiny per-worker scratch (a few floats) sat in one line
// that both workers wrote, and the false sharing doubled the time of small
// trsm calls. Kernels index worker w's scratch at w*Pad(elems).
func Pad(elems int) int {
	if elems <= 0 {
		return 0
	}
	return (elems+padElems-1)/padElems*padElems + padElems
}
