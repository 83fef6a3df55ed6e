package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestForCoversEveryIndexOnce(t *testing.T) {
	for _, count := range []int{1, 2, 3, 7, 64, 1000, 65537} {
		for _, work := range []float64{0, 1, 1e3, 1e9} {
			seen := make([]int32, count)
			var bad atomic.Bool
			err := For(context.Background(), count, work, func(w, lo, hi int) {
				if w < 0 || w >= Workers() || lo >= hi {
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

	require.NoError(t, For(context.Background(), 0, 1, func(w, lo, hi int) { t.Fatal("no work for count 0") }))
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
