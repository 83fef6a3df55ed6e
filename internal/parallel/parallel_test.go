package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/batchlas-go/batchlas"
	"github.com/batchlas-go/batchlas/internal/testmat"
)

func TestForCoversEveryIndexOnce(t *testing.T) {
	for _, count := range []int{1, 2, 3, 7, 64, 1000, 65537} {
		for _, work := range []float64{0, 1, 1e3, 1e9} {
			seen := make([]int32, count)
			var bad atomic.Bool
			err := For(context.Background(), count, work, func(w, lo, hi int) {
				if w < 0 || w >= Workers(context.Background()) || lo >= hi {
					bad.Store(true)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
			})
			require.NoError(t, err)
			require.False(t, bad.Load(), "worker id or chunk out of range")
			for i, s := range seen {
				require.EqualValues(t, 1, s, "count %d work %g: index %d seen %d times", count, work, i, s)
			}
		}
	}
}

func TestForWorkerIDsAreExclusive(t *testing.T) {
	// Two chunks running at once never share a worker id, so per-worker
	// scratch is safe.
	var mu sync.Mutex
	busy := map[int]bool{}
	clash := false
	require.NoError(t, For(context.Background(), 4096, 1e6, func(w, lo, hi int) {
		mu.Lock()
		if busy[w] {
			clash = true
		}
		busy[w] = true
		mu.Unlock()
		runtime.Gosched()
		mu.Lock()
		busy[w] = false
		mu.Unlock()
	}))
	require.False(t, clash)
}

func TestForCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int64
	err := For(ctx, 1<<20, 1e6, func(w, lo, hi int) {
		if done.Add(int64(hi-lo)) > 100 {
			cancel()
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, done.Load(), int64(1<<20), "cancellation stops handing out chunks")
	var ie *batchlas.InterruptedError
	require.ErrorAs(t, err, &ie)
	require.Equal(t, 1<<20, ie.Count)
	require.Equal(t, int(done.Load()), ie.Completed, "every chunk that ran is reported, and only those")

	require.NoError(t, For(context.Background(), 0, 1, func(w, lo, hi int) { t.Fatal("no work for count 0") }))
}

// TestForReportsThePrefixThatRan stops For at every chunk boundary (a
// context done from its (n+1)th check on): the matrices that ran are
// exactly [0, Completed) of the report, Touched == Completed, each ran
// once, and a context done from the start runs nothing. A For whose every
// chunk ran returns nil.
func TestForReportsThePrefixThatRan(t *testing.T) {
	for _, count := range []int{1, 7, 1000, 4099} {
		for _, work := range []float64{10, 1e3, 1e9} {
			for n := int64(0); ; n++ {
				seen := make([]int32, count)
				// Caps 0 (none), 1 and 2 by turns: the report is the
				// same whatever the number of workers.
				ctx := batchlas.WithParallelism(testmat.NewStopAfter(n), int(n%3))
				err := For(ctx, count, work, func(w, lo, hi int) {
					for i := lo; i < hi; i++ {
						atomic.AddInt32(&seen[i], 1)
					}
				})
				ran := 0
				for ran < count && seen[ran] == 1 {
					ran++
				}
				for i := ran; i < count; i++ {
					require.Zero(t, seen[i], "count %d work %g n=%d: index %d ran (%d times) past the prefix %d", count, work, n, i, seen[i], ran)
				}
				if err == nil {
					require.Equal(t, count, ran, "count %d work %g n=%d: nil error, yet not every index ran", count, work, n)
					break
				}
				require.ErrorIs(t, err, context.Canceled)
				var ie *batchlas.InterruptedError
				require.ErrorAs(t, err, &ie)
				require.Equal(t, batchlas.InterruptedError{Count: count, Completed: ran, Touched: ran, Err: context.Canceled}, *ie, "count %d work %g n=%d", count, work, n)
				require.Less(t, ran, count)
				if n == 0 {
					require.Zero(t, ran, "a context done from the start runs nothing")
				} else {
					require.Positive(t, ran, "count %d work %g n=%d: the first check passed, a chunk ran", count, work, n)
				}
				require.Less(t, n, int64(10*count+100), "For never finishes")
			}
		}
	}
}

func TestSmallWorkRunsInline(t *testing.T) {
	// 10 matrices of 10 flops are far below a goroutine's cost: one chunk.
	calls := 0
	require.NoError(t, For(context.Background(), 10, 10, func(w, lo, hi int) {
		calls++
		require.Equal(t, 0, w)
	}))
	require.Equal(t, 1, calls)
}

func TestPadKeepsWorkersApart(t *testing.T) {
	require.Equal(t, 0, Pad(0))
	for _, n := range []int{1, 2, 12, 31, 32, 33, 1000} {
		p := Pad(n)
		require.GreaterOrEqual(t, p, n+padElems, "n=%d: at least one padElems of slack", n)
		require.Zero(t, p%padElems, "n=%d: stride is a multiple of padElems", n)
	}
}

// setProcs sets GOMAXPROCS for the test and restores it after. The tests
// of this package do not run in parallel, so nothing else sees it.
func setProcs(t *testing.T, n int) {
	old := runtime.GOMAXPROCS(n)
	t.Cleanup(func() { runtime.GOMAXPROCS(old) })
}

// waitFor polls cond until it holds, failing the test if it never does:
// a broken pool must fail, not hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i > 200000 {
			t.Fatalf("never happened: %s", what)
		}
		if i%64 == 63 {
			time.Sleep(50 * time.Microsecond)
		} else {
			runtime.Gosched()
		}
	}
}

// gauge counts the chunk functions running at once and the most seen.
type gauge struct{ now, most atomic.Int64 }

func (g *gauge) enter() { storeMax(&g.most, g.now.Add(1)) }

// storeMax raises m to v if v is larger.
func storeMax(m *atomic.Int64, v int64) {
	for old := m.Load(); v > old && !m.CompareAndSwap(old, v); old = m.Load() {
	}
}

func (g *gauge) leave() { g.now.Add(-1) }

func TestWorkersFollowsTheCap(t *testing.T) {
	setProcs(t, 4)
	bg := context.Background()
	require.Equal(t, 4, Workers(bg))
	require.Equal(t, 4, Workers(nil), "a nil context has no cap")
	require.Equal(t, 1, Workers(batchlas.WithParallelism(bg, 1)))
	require.Equal(t, 3, Workers(batchlas.WithParallelism(bg, 3)))
	require.Equal(t, 4, Workers(batchlas.WithParallelism(bg, 9)), "never more than GOMAXPROCS")
	require.Equal(t, 4, Workers(batchlas.WithParallelism(batchlas.WithParallelism(bg, 1), 0)), "n <= 0 lifts an outer cap")
	require.Equal(t, 4, Workers(batchlas.WithParallelism(bg, -5)))
}

// With a cap of 1 the caller runs every chunk: worker 0 only, never two at
// once, and no helper is taken from the pool.
func TestForCapOneRunsOnTheCaller(t *testing.T) {
	setProcs(t, 4)
	var g gauge
	var bad atomic.Bool
	ctx := batchlas.WithParallelism(context.Background(), 1)
	require.NoError(t, For(ctx, 4096, 1e6, func(w, lo, hi int) {
		g.enter()
		defer g.leave()
		if w != 0 || helpers.Load() != 0 {
			bad.Store(true)
		}
		runtime.Gosched()
	}))
	require.False(t, bad.Load(), "a worker other than 0, or a helper, ran")
	require.EqualValues(t, 1, g.most.Load())
}

// With a cap of n and an idle pool, a call takes exactly n-1 helpers
// before the caller's first chunk, runs at most n chunks at once, on
// workers [0, n), and gives every helper back before it returns.
func TestForCapN(t *testing.T) {
	setProcs(t, 8)
	for _, n := range []int{2, 3, 5} {
		var g gauge
		var badWorker atomic.Bool
		release := make(chan struct{})
		unblock := sync.OnceFunc(func() { close(release) })
		defer unblock() // on a failure, the blocked chunks still finish
		callerIn := make(chan int64, 1)
		var first atomic.Bool
		done := make(chan error)
		go func() {
			done <- For(batchlas.WithParallelism(context.Background(), n), 64, 1e9, func(w, lo, hi int) {
				g.enter()
				defer g.leave()
				if w < 0 || w >= n {
					badWorker.Store(true)
				}
				if w == 0 && first.CompareAndSwap(false, true) {
					callerIn <- helpers.Load()
				}
				<-release
			})
		}()
		// The caller hires before it runs its first chunk.
		hired := <-callerIn
		waitFor(t, "every worker in a chunk", func() bool { return g.now.Load() >= int64(n) })
		unblock()
		require.NoError(t, <-done)
		require.EqualValues(t, n-1, hired, "n=%d: helpers taken", n)
		require.False(t, badWorker.Load(), "n=%d: worker index out of [0, n)", n)
		require.EqualValues(t, n, g.most.Load(), "n=%d: at most n chunks at once", n)
		require.Zero(t, helpers.Load(), "n=%d: every helper given back", n)
	}
}

// ForScratch never runs more workers than the scratch has slots.
func TestForScratchBoundsWorkers(t *testing.T) {
	setProcs(t, 8)
	for _, slots := range []int{-1, 0, 1, 3} {
		var bad atomic.Bool
		var g gauge
		want := max(slots, 1)
		require.NoError(t, ForScratch(context.Background(), 4096, 1e6, slots, func(w, lo, hi int) {
			g.enter()
			defer g.leave()
			if w < 0 || w >= want {
				bad.Store(true)
			}
			runtime.Gosched()
		}))
		require.False(t, bad.Load(), "slots=%d: worker index out of range", slots)
		require.LessOrEqual(t, g.most.Load(), int64(want), "slots=%d", slots)
	}
}

// The pool bounds the whole process: with C callers inside For at once,
// at most GOMAXPROCS-1 helpers run, so at most C + GOMAXPROCS - 1 chunk
// functions run at once (each caller always works on its own call). Every
// caller blocks its chunks until all C callers and a full pool are in, so
// the bound is reached and then checked, not merely not exceeded by luck.
func TestForConcurrentCallersShareThePool(t *testing.T) {
	const procs, callers = 4, 3
	setProcs(t, procs)
	var g gauge
	var mostHelpers atomic.Int64
	var badWorker atomic.Bool
	release := make(chan struct{})
	var wg sync.WaitGroup
	// On a failure below, the blocked chunks still finish and give their
	// helpers back, so later tests start with an idle pool.
	unblock := sync.OnceFunc(func() { close(release) })
	defer wg.Wait()
	defer unblock()
	var callersIn atomic.Int64
	for range callers {
		var first atomic.Bool
		wg.Go(func() {
			err := For(context.Background(), 256, 1e9, func(w, lo, hi int) {
				g.enter()
				defer g.leave()
				storeMax(&mostHelpers, helpers.Load())
				if w < 0 || w >= procs {
					badWorker.Store(true)
				}
				if w == 0 && first.CompareAndSwap(false, true) {
					callersIn.Add(1)
				}
				<-release
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, "every caller in its first chunk", func() bool { return callersIn.Load() == callers })
	waitFor(t, "the pool full and every helper in a chunk", func() bool { return g.now.Load() == callers+procs-1 })
	require.EqualValues(t, procs-1, helpers.Load(), "the pool is full")
	unblock()
	wg.Wait()
	require.False(t, badWorker.Load())
	require.EqualValues(t, callers+procs-1, g.most.Load(), "C + GOMAXPROCS - 1 chunk functions at most")
	require.LessOrEqual(t, mostHelpers.Load(), int64(procs-1))
	waitFor(t, "every helper given back", func() bool { return helpers.Load() == 0 })
}

// A chunk function that calls For (an op calling another op from inside a
// worker) finishes even when the pool is exhausted: the inner call runs on
// the goroutine that made it and never waits for a helper.
func TestForNestedNeverDeadlocks(t *testing.T) {
	setProcs(t, 3)
	for _, outerCap := range []int{0, 1, 2} {
		var total atomic.Int64
		ctx := batchlas.WithParallelism(context.Background(), outerCap)
		var wg sync.WaitGroup
		for range 4 { // more callers than the pool has helpers
			wg.Go(func() {
				assert.NoError(t, For(ctx, 64, 1e9, func(w, lo, hi int) {
					for i := lo; i < hi; i++ {
						assert.NoError(t, For(ctx, 32, 1e9, func(w, lo, hi int) {
							total.Add(int64(hi - lo))
						}))
					}
				}))
			})
		}
		wg.Wait()
		require.EqualValues(t, 4*64*32, total.Load(), "cap %d: every inner index ran once", outerCap)
		// A helper hired for a call that finished without it gives its
		// slot back when it is scheduled.
		waitFor(t, "every helper given back", func() bool { return helpers.Load() == 0 })
	}
}

// sumJob adds its chunk's indexes into per-worker slots.
type sumJob struct {
	sums []int64
}

func (j *sumJob) Chunk(w, lo, hi int) {
	for i := lo; i < hi; i++ {
		j.sums[w*8] += int64(i)
	}
}

// Run with a pooled job allocates nothing once its helpers are parked
// (on the caller alone, on every worker, under a cap). testmat.NoAllocs
// measures on one worker and on all four; every call sums every index
// once.
func TestRunDoesNotAllocate(t *testing.T) {
	if testmat.RaceEnabled {
		t.Skip("the race detector's runtime allocates")
	}
	setProcs(t, 4)
	for _, c := range []struct {
		name  string
		count int
		work  float64
		cap   int
	}{
		{"caller alone", 3, 10, 0},
		{"every worker", 4096, 1e6, 0},
		{"cap 2", 4096, 1e6, 2},
	} {
		ctx := batchlas.WithParallelism(context.Background(), c.cap)
		sums := make([]int64, 8*Workers(ctx))
		calls := int64(0)
		call := func() {
			calls++
			j := Get[sumJob]()
			j.sums = sums
			if err := Run(ctx, c.count, c.work, j); err != nil {
				t.Fatal(err)
			}
			Put(j)
		}
		call() // park the helpers and fill the free lists
		testmat.NoAllocs(t, c.name, call)
		var total int64
		for _, s := range sums {
			total += s
		}
		require.EqualValues(t, calls*int64(c.count)*int64(c.count-1)/2, total, "%s: every index summed once per call", c.name)
	}
}

// Put clears a job, so a recycled one holds no caller's memory.
func TestPutClearsTheJob(t *testing.T) {
	j := Get[sumJob]()
	j.sums = make([]int64, 8)
	Put(j)
	require.Nil(t, j.sums)
}

// RunAll runs every chunk under a done context, on the workers of its
// cap, and allocates nothing.
func TestRunAllIgnoresCancellation(t *testing.T) {
	setProcs(t, 4)
	ctx, cancel := context.WithCancel(batchlas.WithParallelism(context.Background(), 3))
	cancel()
	sums := make([]int64, 8*4)
	j := &sumJob{sums: sums}
	RunAll(ctx, 4096, 1e6, j)
	var total int64
	for w, s := range sums {
		if s != 0 && w/8 >= 3 {
			t.Errorf("worker %d ran under a cap of 3", w/8)
		}
		total += s
	}
	require.EqualValues(t, 4096*4095/2, total, "every index ran once")
	testmat.NoAllocs(t, "RunAll", func() { RunAll(ctx, 4096, 1e6, j) })
}

// A free list hands back what was put on it, to any goroutine, and
// neither waits when empty nor when full.
func TestFreeList(t *testing.T) {
	l := NewFreeList[*int]()
	_, ok := l.Get()
	require.False(t, ok, "empty")
	x := new(int)
	l.Put(x)
	done := make(chan *int)
	go func() {
		y, _ := l.Get()
		done <- y
	}()
	require.Same(t, x, <-done, "put on one goroutine, got on another")
	for range freeListCap + 1 {
		l.Put(new(int)) // the last one is dropped, without waiting
	}
	testmat.NoAllocs(t, "a free list's Get and Put", func() {
		y, _ := l.Get()
		l.Put(y)
	})
}

// A helper hired for a run that is over or closed when it is scheduled
// touches nothing of the loop but its state word, and gives its slot
// back; one hired for the running generation of an open loop joins it and
// works. This is what lets a call return without waiting for helpers
// still on their way.
func TestLateHelperLeavesTheLoopAlone(t *testing.T) {
	setProcs(t, 2)
	waitFor(t, "the helpers of earlier tests back", func() bool { return helpers.Load() == 0 })
	var ran atomic.Int64
	l := &loop{ctx: context.Background(), count: 1, chunk: 1, left: make(chan struct{}, 1)}
	l.body = Func(func(w, lo, hi int) { ran.Add(int64(hi - lo)) })
	send := func(gen uint32) {
		t.Helper()
		require.True(t, tryHelper(1), "a free helper slot")
		require.True(t, hire(task{l, 1, gen}))
		waitFor(t, "the helper's slot given back", func() bool { return helpers.Load() == 0 })
	}

	l.state.Store(7<<32 | closedBit) // generation 7, closed by its caller
	send(7)
	require.Zero(t, ran.Load(), "a closed loop ran a late helper's chunk")
	require.EqualValues(t, 7<<32|closedBit, l.state.Load())

	l.state.Store(8 << 32) // the loop reused: generation 8, open
	send(7)
	require.Zero(t, ran.Load(), "a newer generation ran a late helper's chunk")
	require.EqualValues(t, 8<<32, l.state.Load())

	send(8)
	require.EqualValues(t, 1, ran.Load(), "the running generation's helper worked")
	require.EqualValues(t, 8<<32|joinedOne, l.state.Load(), "the helper joined and left")
}

// Closing a loop with a helper in it makes the caller wait for that
// helper to leave, and only then.
func TestCloseWaitsForJoinedHelpers(t *testing.T) {
	l := &loop{left: make(chan struct{}, 1)}
	l.state.Store(3 << 32)
	require.True(t, l.join(3))
	require.True(t, l.join(3))
	s := l.state.Or(closedBit)
	require.EqualValues(t, 2, s&activeMask, "two helpers in the loop at the close")
	require.EqualValues(t, 2, s&(closedBit-1)/joinedOne, "two helpers joined")
	require.False(t, l.join(3), "a helper joined a closed loop")
	l.leave()
	select {
	case <-l.left:
		t.Fatal("the caller was woken with a helper still in the loop")
	default:
	}
	l.leave()
	select {
	case <-l.left:
	default:
		t.Fatal("the last helper out of a closed loop did not wake the caller")
	}
}

// countingCtx counts its Err calls.
type countingCtx struct {
	context.Context
	calls atomic.Int64
}

func (c *countingCtx) Err() error { c.calls.Add(1); return nil }

// A call looks at its context once per chunk and once more per worker it
// hired, whether each helper came in time to work or not: tests (and
// users) that stop a call at its nth look get the same call every time.
func TestLooksAtTheContextAsOftenWhateverTheScheduler(t *testing.T) {
	setProcs(t, 2)
	for i := range 200 {
		waitFor(t, "the helpers of earlier calls back", func() bool { return helpers.Load() == 0 })
		ctx := &countingCtx{Context: context.Background()}
		spin := i % 4 // from chunks over before a helper can start to chunks it shares
		require.NoError(t, For(ctx, 16, 1e9, func(w, lo, hi int) {
			for range spin * 1000 {
				runtime.Gosched()
			}
		}))
		// Eight chunks of two (four per worker), two workers.
		require.EqualValues(t, 8+2, ctx.calls.Load(), "call %d: looks at the context", i)
	}
}
