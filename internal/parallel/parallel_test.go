package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

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
				err := For(testmat.NewStopAfter(n), count, work, func(w, lo, hi int) {
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
