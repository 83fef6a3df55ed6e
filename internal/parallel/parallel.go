// Package parallel is the batch-parallel loop every kernel uses: it spreads
// the matrices of a batch over workers in chunks and honours context
// cancellation between chunks, reporting how far it got.
//
// Workers are shared by the whole process. The goroutine that calls For
// always works on its own call (worker 0); extra workers are helper
// goroutines, and at most GOMAXPROCS-1 helpers run at any moment across
// every For of the process. A call takes helpers only while that pool has
// room (try-acquire, never a wait) and gives each back when the call has
// no chunk left for it. Nor does a call wait for a helper that has not
// started by the time the chunks are all handed out: a helper joins the
// call before it works, and one that comes too late gives its slot back
// when it is scheduled, touching nothing of the call (loop.state).
// So at most C + GOMAXPROCS - 1 goroutines run chunk functions at once
// when C goroutines are inside For, instead of up to C * GOMAXPROCS with
// one full fan-out per call; one call alone still gets GOMAXPROCS
// workers.
//
// Why this design: a caller that never waits for a worker cannot deadlock,
// whatever nests inside what. A chunk function may itself call an op (and
// so For) on its worker goroutine; that inner For runs on the goroutine
// that called it and takes helpers only if the pool has room, exactly like
// an outer one. Helper goroutines are kept parked between calls and handed
// work over a channel without waiting (a hire that finds none parked
// starts one), and the loop's shared state is pooled: starting a goroutine
// with arguments allocates, and an op called with its workspace allocates
// nothing (Run with a pooled Body; decisions in docs/decisions.md).
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
	"sync/atomic"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/opkit"
)

// Workers is the most workers a call with ctx uses: GOMAXPROCS, capped by
// batchlas.WithParallelism. Kernels that need per-worker scratch size their
// workspace with it, from the same ctx as the call.
func Workers(ctx context.Context) int {
	p := runtime.GOMAXPROCS(0)
	if n := opkit.ParallelismFrom(ctx); n > 0 && n < p {
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

// Body is the work of one batch-parallel loop: Chunk runs matrices
// [lo, hi) on worker. Kernels hand Run a pointer to a job struct taken from
// a Jobs free list, so that a call with its workspace supplied allocates
// nothing: a closure handed to a loop that other goroutines run escapes to
// the heap, with everything it captures, on every call.
type Body interface {
	Chunk(worker, lo, hi int)
}

// Func adapts a closure to a Body, for callers off the allocation-free
// path (tools, tests): For and ForScratch take one.
type Func func(worker, lo, hi int)

// Chunk calls f.
func (f Func) Chunk(worker, lo, hi int) { f(worker, lo, hi) }

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
//
// fn escapes to the heap with what it captures; kernels use Run.
func For(ctx context.Context, count int, work float64, fn func(worker, lo, hi int)) error {
	return run(ctx, count, work, Workers(ctx), Func(fn))
}

// ForScratch is For for a kernel with scratch for slots workers: it runs
// on at most slots workers (one when slots < 1), so worker < max(1, slots)
// and the kernel may index its scratch by worker without a check.
func ForScratch(ctx context.Context, count int, work float64, slots int, fn func(worker, lo, hi int)) error {
	return RunScratch(ctx, count, work, slots, Func(fn))
}

// Run is For with the work as a Body. It allocates nothing when b is a
// pointer (a pooled job) and its helpers are parked from earlier calls.
func Run(ctx context.Context, count int, work float64, b Body) error {
	return run(ctx, count, work, Workers(ctx), b)
}

// RunAll is Run that runs every chunk whatever ctx says: ctx gives the
// worker cap only, and RunAll returns nil. For work that is no use unless
// it finishes (the tasks of one matrix spread over the workers), where the
// caller asks ctx between such pieces itself. Unlike Run on
// context.WithoutCancel(ctx), it allocates nothing.
func RunAll(ctx context.Context, count int, work float64, b Body) {
	_ = run(context.Background(), count, work, Workers(ctx), b)
}

// RunScratch is ForScratch with the work as a Body.
func RunScratch(ctx context.Context, count int, work float64, slots int, b Body) error {
	return run(ctx, count, work, min(Workers(ctx), max(slots, 1)), b)
}

// minChunkFlops is the least work a chunk carries.
const minChunkFlops = 32 << 10

// run is Run on at most workers workers.
func run(ctx context.Context, count int, work float64, workers int, b Body) error {
	if count <= 0 {
		return nil
	}
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
			b.Chunk(0, lo, min(count, lo+chunk))
		}
		return nil
	}
	l, ok := loops.Get()
	if !ok {
		l = new(loop)
	}
	l.ctx, l.body, l.count, l.chunk = ctx, b, count, chunk
	l.next.Store(0)
	if l.left == nil {
		l.left = make(chan struct{}, 1)
	}
	gen := uint32(l.state.Load()>>32) + 1
	l.state.Store(uint64(gen) << 32)
	err := l.run(workers, nchunks, gen)
	l.ctx, l.body = nil, nil // drop the call's operands before the loop is reused
	loops.Put(l)
	return err
}

// loop is the shared state of one parallel run: what its helpers need.
// It is pooled, with the helper goroutines, so that a parallel call
// allocates nothing in the steady state.
type loop struct {
	ctx          context.Context
	body         Body
	count, chunk int
	next         atomic.Int64 // chunks handed out
	// state is the run's generation (high 32 bits), whether the caller
	// has closed it to helpers (closedBit), how many helpers joined it
	// (joinedOne units) and how many are in it now (the low bits). A
	// helper joins before it touches anything else of the loop, and only
	// while its generation runs and the loop is open, so the caller, which
	// closes the loop when no chunk is left, waits only for helpers that
	// joined: never for one not yet scheduled, whose wake-up (several
	// microseconds on a virtual machine) was most of a small call's time.
	// A helper that comes late finds the loop closed or on a newer
	// generation and goes back to parking.
	state atomic.Uint64
	left  chan struct{} // the last joined helper's leaving, after the close
}

const (
	closedBit  = 1 << 31
	joinedOne  = 1 << 15
	activeMask = joinedOne - 1
)

var loops = NewFreeList[*loop]()

// take hands out the next chunk, or reports that there is none left or that
// ctx is done.
func (l *loop) take() (lo int, ok bool) {
	if l.ctx.Err() != nil {
		return 0, false
	}
	lo = int(l.next.Add(1)-1) * l.chunk
	return lo, lo < l.count
}

// work runs chunks on worker w until none is left.
func (l *loop) work(w int) {
	for lo, ok := l.take(); ok; lo, ok = l.take() {
		l.body.Chunk(w, lo, min(l.count, lo+l.chunk))
	}
}

func (l *loop) run(workers, nchunks int, gen uint32) error {
	// The caller hires helpers before each of its own chunks while the
	// call has workers to spare and chunks for them, so a call that
	// started while the pool was busy picks up helpers as they free up.
	hired := 1 // workers of this call, the caller included
	limit := int64(runtime.GOMAXPROCS(0) - 1)
	for {
		for hired < workers && int(l.next.Load())+hired < nchunks && tryHelper(limit) {
			if !hire(task{l, hired, gen}) {
				helpers.Add(-1)
				break
			}
			hired++
		}
		lo, ok := l.take()
		if !ok {
			break
		}
		l.body.Chunk(0, lo, min(l.count, lo+l.chunk))
	}
	// Close the loop to helpers still on their way, and wait for those in
	// it to finish their chunks.
	s := l.state.Or(closedBit)
	if s&activeMask != 0 {
		<-l.left
	}
	// Every worker looks at the context once more than it takes chunks
	// (its last take finds none left); for a worker the call planned but
	// did not get (the pool was busy, or the helper came too late) the
	// caller looks here, so that the number of looks a call makes, its
	// chunks plus its planned workers, does not depend on the scheduler:
	// an interruption at a chosen look is reproducible.
	for range workers - 1 - int(s&(closedBit-1)/joinedOne) {
		_ = l.ctx.Err()
	}
	// Every chunk below next was handed out and has run to its end; none
	// above it started. next stops short of nchunks only when some worker
	// saw ctx done, and a done context stays done.
	if handed := int(l.next.Load()); handed < nchunks {
		return interrupted(l.count, handed*l.chunk, l.ctx.Err())
	}
	return nil
}

// join enters a helper into generation gen of the loop; false when that
// run is over or closed (the helper then touches nothing else of it).
func (l *loop) join(gen uint32) bool {
	for {
		s := l.state.Load()
		if uint32(s>>32) != gen || s&closedBit != 0 {
			return false
		}
		if l.state.CompareAndSwap(s, s+joinedOne+1) {
			return true
		}
	}
}

// leave takes a joined helper out of the loop, waking the caller if it is
// the last one out of a closed loop.
func (l *loop) leave() {
	if s := l.state.Add(^uint64(0)); s&closedBit != 0 && s&activeMask == 0 {
		l.left <- struct{}{}
	}
}

// task is one helper's share of a loop: its worker index there.
type task struct {
	l   *loop
	w   int
	gen uint32 // the run of l it was hired for
}

// Helper goroutines outlive the loops they work on: a finished helper parks
// on tasks for the next one, because starting a goroutine with arguments
// allocates. A hire goes to a parked helper when one is waiting and starts
// a new one otherwise, up to maxParked() goroutines; beyond that (helpers
// finishing a task but not yet parked again) the call goes on without the
// helper. A helper slot (tryHelper) is what bounds the helpers at work;
// this only bounds the goroutines kept for it.
var (
	tasks   = make(chan task)
	started atomic.Int64 // helper goroutines alive, parked or working
)

// maxParked is the most helper goroutines kept: twice the slots, room for
// helpers in the gap between giving their slot back and parking.
func maxParked() int64 { return 2 * int64(runtime.GOMAXPROCS(0)) }

// hire hands t to a parked helper or a new one; it never waits. It reports
// false when neither was available.
func hire(t task) bool {
	select {
	case tasks <- t:
		return true
	default:
	}
	for {
		n := started.Load()
		if n >= maxParked() {
			return false
		}
		if started.CompareAndSwap(n, n+1) {
			go helper(t)
			return true
		}
	}
}

// helper runs t, then each task handed to it, for the life of the process.
func helper(t task) {
	for {
		if t.l.join(t.gen) {
			t.l.work(t.w)
			// Give the slot back before leaving: it is free when the call
			// returns.
			helpers.Add(-1)
			t.l.leave() // t.l may be reused from here on
		} else {
			helpers.Add(-1) // hired too late: the call is done or closed
		}
		t = <-tasks
	}
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
