// Package parallel is the batch-parallel loop every kernel uses: it spreads
// the matrices of a batch over workers in chunks and honours context
// cancellation between chunks, reporting how far it got.
//
// Workers are shared by the whole process. The goroutine that calls For
// always works on its own call (worker 0); extra workers are helper
// goroutines, and at most GOMAXPROCS-1 helpers run at any moment across
// every For of the process. A call takes helpers only while that pool has
// room (try-acquire, never a wait) and gives each back when the call has
// no chunk left for it. So at most C + GOMAXPROCS - 1 goroutines run chunk
// functions at once when C goroutines are inside For, instead of up to
// C * GOMAXPROCS with one full fan-out per call; one call alone still gets
// GOMAXPROCS workers.
//
// Why this design: a caller that never waits for a worker cannot deadlock,
// whatever nests inside what. A chunk function may itself call an op (and
// so For) on its worker goroutine; that inner For runs on the goroutine
// that called it and takes helpers only if the pool has room, exactly like
// an outer one. A queue drained by long-lived workers would save starting
// a goroutine per helper (about a microsecond, against chunks of at least
// 32K flops) but needs the caller to drain its own chunks anyway to stay
// deadlock-free, which is what this does without the queue.
//
// A call's worker count is Workers(ctx): GOMAXPROCS, or less under
// batchlas.WithParallelism. Kernels size per-worker scratch with it (their
// BufferSize gets the call's ctx), and ForScratch caps a call at the number
// of scratch slots it was given, so a worker index never outruns the
// scratch even if GOMAXPROCS changed between sizing and the call.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
)

// Workers is the most workers a call with ctx uses: GOMAXPROCS, capped by
// batchlas.WithParallelism. Kernels that need per-worker scratch size their
// workspace with it, from the same ctx as the call.
func Workers(ctx context.Context) int {
	p := runtime.GOMAXPROCS(0)
	if n := batchlas.ParallelismFrom(ctx); n > 0 && n < p {
		return n
	}
	return p
}

// helpers counts the helper goroutines running chunks, over every For of
// the process.
var helpers atomic.Int64

// tryHelper takes a helper slot if fewer than limit are taken; it never
// waits.
func tryHelper(limit int64) bool {
	for {
		n := helpers.Load()
		if n >= limit {
			return false
		}
		if helpers.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// For calls fn(worker, lo, hi) over [0, count) in chunks of at least grain
// matrices, on at most Workers(ctx) goroutines; worker is in
// [0, Workers(ctx)), and two chunks running at once never share one.
// The calling goroutine runs chunks as worker 0; helpers come from the
// process-wide pool (see the package comment) when it has room. work is the
// rough cost of one matrix in flops: small batches of cheap matrices run
// on the calling goroutine alone, where a goroutine would cost more than it
// saves.
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
	return forChunks(ctx, count, work, Workers(ctx), fn)
}

// ForScratch is For for a kernel with scratch for slots workers: it runs
// on at most slots workers (one when slots < 1), so worker < max(1, slots)
// and the kernel may index its scratch by worker without a check.
func ForScratch(ctx context.Context, count int, work float64, slots int, fn func(worker, lo, hi int)) error {
	return forChunks(ctx, count, work, min(Workers(ctx), max(slots, 1)), fn)
}

// forChunks is For on at most workers workers.
func forChunks(ctx context.Context, count int, work float64, workers int, fn func(worker, lo, hi int)) error {
	if count <= 0 {
		return nil
	}
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
	// take hands out the next chunk, or reports that there is none left or
	// that ctx is done.
	take := func() (lo int, ok bool) {
		if ctx.Err() != nil {
			return 0, false
		}
		lo = int(next.Add(1)-1) * chunk
		return lo, lo < count
	}
	helper := func(w int) {
		defer wg.Done()
		defer helpers.Add(-1) // before Done: the slot is free when For returns
		for lo, ok := take(); ok; lo, ok = take() {
			fn(w, lo, min(count, lo+chunk))
		}
	}
	// The caller hires helpers before each of its own chunks while the
	// call has workers to spare and chunks for them, so a call that
	// started while the pool was busy picks up helpers as they free up.
	hired := 1 // workers of this call, the caller included
	limit := int64(runtime.GOMAXPROCS(0) - 1)
	for {
		for hired < workers && int(next.Load())+hired < nchunks && tryHelper(limit) {
			wg.Add(1)
			go helper(hired)
			hired++
		}
		lo, ok := take()
		if !ok {
			break
		}
		fn(0, lo, min(count, lo+chunk))
	}
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
